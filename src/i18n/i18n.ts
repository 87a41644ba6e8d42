import { useSyncExternalStore } from 'react';
import { DIR_OF, LANG_STORAGE_KEY, resolveLang, searchWithLang, type Lang } from './lang';
import { en, type Catalogue, type MessageKey } from './locales/en';
import type { IcuFormatter } from './icu';

/**
 * The active language and its messages, for the whole site: a tiny external store (React reads it
 * with {@link useT}). English is bundled and rendered without the ICU runtime; choosing another
 * language fetches that language's catalogue and the ICU runtime as lazy chunks (only the active
 * one), and until they arrive the page stays in English. `<html lang>` and `dir` follow the language.
 */

/** Message arguments. */
export type MessageValues = Record<string, string | number>;

/** The lazy catalogue of each non-English language (a chunk each). */
const LOADERS: Record<Exclude<Lang, 'en'>, () => Promise<{ messages: Catalogue }>> = {
  es: () => import('./locales/es'),
  ar: () => import('./locales/ar'),
  zh: () => import('./locales/zh'),
};

interface State {
  /** The chosen language. */
  lang: Lang;
  /** The language whose messages are loaded (lags `lang` while its chunk loads). */
  shown: Lang;
  messages: Catalogue;
  icu: IcuFormatter | null;
}

let state: State = { lang: 'en', shown: 'en', messages: en, icu: null };
const listeners = new Set<() => void>();
let request = 0;

function emit() {
  for (const l of listeners) l();
}

/** English messages use plain `{name}` arguments only, so this is exact for them (a test checks). */
function fillPlain(message: string, values: MessageValues | undefined): string {
  return values ? message.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m)) : message;
}

/** The message `key` in the shown language, `values` substituted (English when a key is missing). */
export function translate(key: MessageKey, values?: MessageValues): string {
  return formatMessage(state.messages[key] ?? en[key], values);
}

/**
 * One message of the shown language formatted with `values`: ICU for a non-English language, the
 * plain `{name}` filler for English. Used by the page areas (`area.ts`) for their own catalogues.
 */
export function formatMessage(message: string, values?: MessageValues): string {
  const { icu } = state;
  return icu && state.shown !== 'en' ? icu.format(message, values) : fillPlain(message, values);
}

/** The language whose messages are shown (lags the chosen one while its chunks load). */
export function shownLang(): Lang {
  return state.shown;
}

/**
 * Loaders the page areas register (`area.ts`): `setLang` waits for every registered area's
 * catalogue of the new language before it switches, so a page never shows half its words in the
 * old language. An area whose code loads later fetches its own catalogue then.
 */
const areaLoaders = new Set<(lang: Exclude<Lang, 'en'>) => Promise<void>>();

/** Registers an area's loader (see {@link areaLoaders}); returns the unregister function. */
export function registerAreaLoader(load: (lang: Exclude<Lang, 'en'>) => Promise<void>): () => void {
  areaLoaders.add(load);
  return () => areaLoaders.delete(load);
}

/** Subscribes to language changes (the React hooks and the areas use it). */
export function subscribeLang(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A number in the shown language's conventions (`Intl.NumberFormat`). */
export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(state.shown, options).format(n);
}

/** The chosen language. */
export function currentLang(): Lang {
  return state.lang;
}

function applyDocument(lang: Lang) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = lang;
  document.documentElement.dir = DIR_OF[lang];
}

/**
 * Switches to `lang`: English at once; another language once its catalogue and the ICU runtime
 * have loaded (a later call wins over an earlier one still loading). `<html lang dir>` change when
 * the messages do, so the page never shows English laid out right to left.
 */
export async function setLang(lang: Lang): Promise<void> {
  const mine = ++request;
  state = { ...state, lang };
  if (lang === 'en') {
    state = { lang, shown: 'en', messages: en, icu: null };
    applyDocument('en');
    emit();
    return;
  }
  emit();
  const [{ messages }, { createIcuFormatter }] = await Promise.all([
    LOADERS[lang](),
    import('./icu'),
    ...[...areaLoaders].map((load) => load(lang)),
  ]);
  if (mine !== request) return;
  state = { lang, shown: lang, messages, icu: createIcuFormatter(lang) };
  applyDocument(lang);
  emit();
}

/**
 * The learner picks a language: remembered in localStorage and written into the address's query
 * (`?lang=`, before the hash, which share links copy), then shown.
 */
export function chooseLang(lang: Lang): Promise<void> {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, lang);
  } catch {
    // Storage refused (private mode): the choice lasts for this page.
  }
  if (typeof location !== 'undefined' && typeof history !== 'undefined') {
    history.replaceState(history.state, '', `${location.pathname}${searchWithLang(location.search, lang)}${location.hash}`);
  }
  return setLang(lang);
}

/** The language to start in, from the address, the remembered choice and the browser's languages. */
export function initialLang(): Lang {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANG_STORAGE_KEY);
  } catch {
    stored = null;
  }
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return resolveLang(typeof location === 'undefined' ? '' : location.search, stored, browser);
}

const subscribe = subscribeLang;

const getState = () => state;

/** The translate function, re-rendering the component when the language's messages change. */
export function useT(): typeof translate {
  useSyncExternalStore(subscribe, getState, getState);
  return translate;
}

/** The chosen language, re-rendering on change. */
export function useLang(): Lang {
  return useSyncExternalStore(subscribe, getState, getState).lang;
}
