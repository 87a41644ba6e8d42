import { afterEach, describe, expect, it, vi } from 'vitest';
import { chooseLang, currentLang, formatNumber, setLang, translate } from './i18n';
import { LANG_STORAGE_KEY } from './lang';

// The unit tests run in node: a minimal document, storage, location and history stand in for the page's.
const root = { lang: '', dir: '' };
const store = new Map<string, string>();
const url = new URL('http://lab.test/');
vi.stubGlobal('document', { documentElement: root });
vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), clear: () => store.clear() });
vi.stubGlobal('location', { get pathname() { return url.pathname; }, get search() { return url.search; }, get hash() { return url.hash; } });
vi.stubGlobal('history', { state: null, replaceState: (_s: unknown, _t: string, next: string) => { const u = new URL(next, url); url.pathname = u.pathname; url.search = u.search; url.hash = u.hash; } });

afterEach(async () => {
  await setLang('en');
  localStorage.clear();
});

describe('i18n runtime', () => {
  it('renders English without loading anything', () => {
    expect(translate('nav.label')).toBe('Labs');
    expect(translate('nav.soonTitle', { blurb: 'x' })).toBe('x — coming soon');
    expect(root.dir).not.toBe('rtl');
  });

  it('switches to Arabic: messages, <html lang dir>', async () => {
    await setLang('ar');
    expect(translate('lab.races.name')).toBe('السباقات');
    expect(root.lang).toBe('ar');
    expect(root.dir).toBe('rtl');
    expect(translate('nav.soonTitle', { blurb: 'x' })).toBe('x — قريباً');
  });

  it('a later choice wins over one still loading', async () => {
    const first = setLang('zh');
    const second = setLang('es');
    await Promise.all([first, second]);
    expect(currentLang()).toBe('es');
    expect(translate('nav.label')).toBe('Laboratorios');
    expect(root.lang).toBe('es');
  });

  it('remembers a chosen language and writes it into the address, keeping the hash', async () => {
    history.replaceState(null, '', '/?x=1#/races/A?t=5');
    await chooseLang('zh');
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe('zh');
    expect(location.search).toBe('?x=1&lang=zh');
    expect(location.hash).toBe('#/races/A?t=5');
    expect(translate('nav.label')).toBe('实验室');
  });

  it('formats numbers in the shown language', async () => {
    await setLang('es');
    expect(formatNumber(12345.5)).toBe(new Intl.NumberFormat('es').format(12345.5));
  });
});
