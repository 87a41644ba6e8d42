/**
 * The lab's languages and how the active one is chosen, as pure functions (no DOM access here;
 * `i18n.ts` passes in the address, the stored choice and the browser's languages).
 *
 * Order of precedence: `?lang=es|ar|zh|en` in the page's address (the query before the `#`, which
 * the hash router never rewrites and share links copy), then the learner's choice remembered in
 * localStorage, then the browser's preferred languages, then English.
 */

/** A language of the lab. English is the source language, bundled; the others load on demand. */
export type Lang = 'en' | 'es' | 'ar' | 'zh';

/** The languages, in the picker's order. */
export const LANGS: readonly Lang[] = ['en', 'es', 'ar', 'zh'];

/** Each language's own name (an autonym: shown as-is in every language). */
export const AUTONYM: Readonly<Record<Lang, string>> = { en: 'English', es: 'Español', ar: 'العربية', zh: '中文' };

/** Writing direction of each language: Arabic is right to left. */
export const DIR_OF: Readonly<Record<Lang, 'ltr' | 'rtl'>> = { en: 'ltr', es: 'ltr', ar: 'rtl', zh: 'ltr' };

/** The query parameter naming the language. */
export const LANG_PARAM = 'lang';

/** The localStorage key of the remembered choice. */
export const LANG_STORAGE_KEY = 'mcp-lab.lang';

/** `value` as a Lang, or null when it is not one of the lab's languages. */
export function asLang(value: string | null | undefined): Lang | null {
  return value !== null && value !== undefined && (LANGS as readonly string[]).includes(value) ? (value as Lang) : null;
}

/** The lab language for a BCP 47 tag from the browser (`es-MX` → es, `zh-Hant-TW` → zh, `ar-EG` → ar), or null. */
export function langOfTag(tag: string): Lang | null {
  return asLang(tag.toLowerCase().split(/[-_]/)[0]);
}

/** The `lang` parameter of a query string (`?lang=ar&x=1`), or null when absent or not a lab language. */
export function langOfSearch(search: string): Lang | null {
  return asLang(new URLSearchParams(search).get(LANG_PARAM));
}

/** The active language: address, then remembered choice, then the browser's languages, then English. */
export function resolveLang(search: string, stored: string | null, browser: readonly string[]): Lang {
  const fromAddress = langOfSearch(search);
  if (fromAddress) return fromAddress;
  const fromStore = asLang(stored);
  if (fromStore) return fromStore;
  for (const tag of browser) {
    const l = langOfTag(tag);
    if (l) return l;
  }
  return 'en';
}

/** `search` with `lang` set to `lang` (other parameters kept, in order), e.g. for `history.replaceState`. */
export function searchWithLang(search: string, lang: Lang): string {
  const params = new URLSearchParams(search);
  params.set(LANG_PARAM, lang);
  return `?${params.toString()}`;
}
