import { useSyncExternalStore } from 'react';
import { formatMessage, registerAreaLoader, shownLang, subscribeLang, type MessageValues } from './i18n';
import type { Lang } from './lang';

/**
 * A page area's own catalogue (the races page, the Traffic findings, the review report …), so each
 * part of the lab carries its words in its own chunk and several people can translate at once.
 *
 * Layout: `src/i18n/areas/<area>/en.ts` exports `en` (the source messages, `as const`; every key
 * starts with `<area>.`), `es.ts`, `ar.ts` and `zh.ts` export `messages: AreaCatalogue<typeof en>`,
 * and `index.ts` calls {@link defineArea} with lazy imports of the three. English ships in the chunk
 * of the code that imports the area; another language's catalogue is fetched the first time that
 * language is shown (and `setLang` waits for it, so the page switches in one go). The catalogue test
 * (`catalogues.test.ts`) finds every area folder by itself and checks keys, ICU syntax, arguments,
 * protocol tokens and that every key is used.
 */

/** A non-English catalogue of an area: a message for every key of its English catalogue. */
export type AreaCatalogue<E extends Record<string, string>> = Readonly<Record<keyof E, string>>;

/** The lazy catalogues of an area, one per non-English language. */
export type AreaLoaders<E extends Record<string, string>> = Readonly<
  Record<Exclude<Lang, 'en'>, () => Promise<{ messages: AreaCatalogue<E> }>>
>;

/** An area's translate function and its React hook. */
export interface Area<E extends Record<string, string>> {
  /** The message `key` in the shown language with `values` substituted (English until loaded, or when missing). */
  t(key: keyof E & string, values?: MessageValues): string;
  /** `t`, re-rendering the component when the language or this area's catalogue changes. */
  useT(): (key: keyof E & string, values?: MessageValues) => string;
  /** Loads this area's catalogue of `lang` (a no-op for English or once loaded). */
  load(lang: Lang): Promise<void>;
}

/**
 * Defines an area from its English catalogue and the loaders of the other languages. Registers with
 * the language store so a language switch waits for this area's catalogue; if the area's code loads
 * while another language is already shown, it fetches that catalogue at once and re-renders.
 */
export function defineArea<E extends Record<string, string>>(en: E, loaders: AreaLoaders<E>): Area<E> {
  const loaded: Partial<Record<Lang, AreaCatalogue<E>>> = {};
  const pending: Partial<Record<Lang, Promise<void>>> = {};
  const listeners = new Set<() => void>();
  let version = 0;

  const load = (lang: Lang): Promise<void> => {
    if (lang === 'en' || loaded[lang]) return Promise.resolve();
    pending[lang] ??= loaders[lang]().then(({ messages }) => {
      loaded[lang] = messages;
      version++;
      for (const l of listeners) l();
    });
    return pending[lang];
  };
  registerAreaLoader(load);
  if (shownLang() !== 'en') void load(shownLang());

  const t = (key: keyof E & string, values?: MessageValues): string => {
    const lang = shownLang();
    const message = (lang === 'en' ? undefined : loaded[lang]?.[key]) ?? en[key] ?? key;
    return formatMessage(message, values);
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const off = subscribeLang(listener);
    return () => {
      listeners.delete(listener);
      off();
    };
  };
  const snapshot = () => `${shownLang()}:${version}`;
  return {
    t,
    load,
    useT() {
      useSyncExternalStore(subscribe, snapshot, snapshot);
      return t;
    },
  };
}
