import { describe, expect, it } from 'vitest';
import { asLang, DIR_OF, langOfSearch, langOfTag, resolveLang, searchWithLang } from './lang';

describe('choosing the language', () => {
  it('reads ?lang= from the address first', () => {
    expect(resolveLang('?lang=ar', 'es', ['zh-CN'])).toBe('ar');
    expect(resolveLang('?x=1&lang=zh', null, [])).toBe('zh');
  });

  it('ignores an unknown ?lang= and falls back to the remembered choice, then the browser', () => {
    expect(resolveLang('?lang=fr', 'es', ['zh'])).toBe('es');
    expect(resolveLang('', 'klingon', ['fr-FR', 'zh-Hant-TW'])).toBe('zh');
    expect(resolveLang('', null, ['fr', 'de'])).toBe('en');
  });

  it('maps browser tags to lab languages', () => {
    expect(langOfTag('es-MX')).toBe('es');
    expect(langOfTag('AR_eg')).toBe('ar');
    expect(langOfTag('en-GB')).toBe('en');
    expect(langOfTag('pt-BR')).toBeNull();
    expect(asLang('EN')).toBeNull();
    expect(langOfSearch('?lang=')).toBeNull();
  });

  it('writes lang into the query, keeping the other parameters', () => {
    expect(searchWithLang('', 'ar')).toBe('?lang=ar');
    expect(searchWithLang('?a=1&lang=es&b=2', 'zh')).toBe('?a=1&lang=zh&b=2');
  });

  it('sets Arabic right to left, the others left to right', () => {
    expect(DIR_OF).toEqual({ en: 'ltr', es: 'ltr', ar: 'rtl', zh: 'ltr' });
  });
});
