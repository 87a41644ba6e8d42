import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY, PROTOCOL_TOKENS } from './glossary';
import { createIcuFormatter } from './icu';
import { en } from './locales/en';
import { messages as es } from './locales/es';
import { messages as ar } from './locales/ar';
import { messages as zh } from './locales/zh';

const SRC = path.resolve(import.meta.dirname, '..');
const AREAS_DIR = path.join(SRC, 'i18n', 'areas');
const LANGS = ['en', 'es', 'ar', 'zh'] as const;

/**
 * Every catalogue: the shell's (`locales/`) and each page area's (`areas/<area>/`, found by reading
 * the folder, so a new area is checked without registering it here).
 */
const AREAS: { area: string; cats: Record<(typeof LANGS)[number], Record<string, string>> }[] = [
  { area: 'shell', cats: { en, es, ar, zh } as Record<(typeof LANGS)[number], Record<string, string>> },
];
for (const area of readdirSync(AREAS_DIR).sort()) {
  const mods = await Promise.all(LANGS.map((l) => import(path.join(AREAS_DIR, area, `${l}.ts`))));
  AREAS.push({ area, cats: { en: mods[0].en, es: mods[1].messages, ar: mods[2].messages, zh: mods[3].messages } });
}

/** Every .ts/.tsx source under src/, except tests and the catalogues themselves. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (full !== path.join(SRC, 'i18n', 'locales') && full !== AREAS_DIR) out.push(...sources(full));
    } else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(full);
  }
  return out;
}

/** The text of every source file (not tests, not catalogues): where keys must be used. */
const SOURCE_TEXT = sources(SRC).map((f) => readFileSync(f, 'utf8')).join('\n');

describe.each(AREAS)('catalogues of $area', ({ area, cats }) => {
  const keys = Object.keys(cats.en).sort();
  const enCat = cats.en;

  it('has keys, each named after its area', () => {
    expect(keys.length).toBeGreaterThan(0);
    if (area !== 'shell') for (const k of keys) expect(k.startsWith(`${area}.`), `${k} must start with ${area}.`).toBe(true);
  });

  for (const [lang, cat] of Object.entries(cats)) {
    it(`${lang} has exactly the English keys, none empty`, () => {
      expect(Object.keys(cat).sort()).toEqual(keys);
      for (const k of keys) expect(cat[k].trim(), `${lang} ${k}`).not.toBe('');
    });

    it(`${lang}: every message parses as ICU and keeps the English arguments`, () => {
      const icu = createIcuFormatter(lang);
      for (const k of keys) {
        const args = Object.fromEntries([...enCat[k].matchAll(/\{(\w+)\}/g)].map((m) => [m[1], `<${m[1]}>`]));
        const out = icu.format(cat[k], args);
        for (const a of Object.keys(args)) expect(out, `${lang} ${k} drops {${a}}`).toContain(`<${a}>`);
      }
    });
  }

  it('English messages use plain {name} arguments only (the bundled fallback formatter is exact)', () => {
    for (const [k, m] of Object.entries(enCat)) expect(m.replace(/\{\w+\}/g, ''), k).not.toMatch(/[{}]/);
  });

  it('every key is used in the sources', () => {
    const unused = keys.filter((k) => !SOURCE_TEXT.includes(`'${k}'`));
    expect(unused).toEqual([]);
  });

  it('protocol tokens and product names stay untranslated', () => {
    for (const k of keys) {
      for (const token of [...PROTOCOL_TOKENS, 'SQLite', 'MCP']) {
        if (!enCat[k].includes(token)) continue;
        for (const [lang, cat] of Object.entries(cats)) expect(cat[k], `${lang} ${k} must keep ${token}`).toContain(token);
      }
    }
  });

});

describe('the shell catalogue', () => {
  it('every key a source passes to a translate function exists in some catalogue', () => {
    const all = new Set(AREAS.flatMap(({ cats }) => Object.keys(cats.en)));
    const used = new Set([...SOURCE_TEXT.matchAll(/\b[tT]\('([a-z]+\.[A-Za-z0-9.]+)'/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    for (const k of used) expect(all.has(k), `t('${k}') has no catalogue entry`).toBe(true);
  });

  it('the shell names MCP in its own words', () => {
    expect(Object.values(en).some((m) => m.includes('MCP'))).toBe(true);
  });

  it('uses the glossary terms for the lab blurbs', () => {
    const term = (id: string, lang: 'es' | 'ar' | 'zh') => {
      const g = GLOSSARY.find((x) => x.id === id)!;
      return g.lab?.[lang] ?? g.docs[lang]!.term;
    };
    expect(zh['lab.races.blurb']).toContain(term('timeout', 'zh'));
    expect(zh['lab.races.blurb']).toContain(term('cancellation', 'zh'));
    expect(zh['lab.resilience.blurb']).toContain(term('circuit-breaker', 'zh'));
    expect(zh['lab.resilience.blurb']).toContain(term('retry', 'zh'));
    // The plural, as the article writes it: مفاتيح الدائرة.
    expect(ar['lab.resilience.blurb']).toContain(term('circuit-breaker', 'ar').replace('مفتاح', 'مفاتيح'));
    expect(ar['lab.resilience.blurb']).toContain(term('retry', 'ar'));
    expect(ar['lab.flow.blurb']).toContain(term('jitter', 'ar'));
    expect(es['lab.races.blurb']).toContain(term('cancellation', 'es'));
    expect(es['lab.ledger.blurb']).toContain(term('idempotency-key', 'es').replace('clave', 'claves'));
  });
});

describe('ICU runtime', () => {
  it('selects the six Arabic plural forms', () => {
    const icu = createIcuFormatter('ar');
    const msg = '{n, plural, zero {zero} one {one} two {two} few {few} many {many} other {other}}';
    expect([0, 1, 2, 3, 11, 100].map((n) => icu.format(msg, { n }))).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('formats numbers in the locale', () => {
    expect(createIcuFormatter('es').format('{n, number}', { n: 12345.5 })).toBe(new Intl.NumberFormat('es').format(12345.5));
    expect(createIcuFormatter('zh').format('{n, plural, other {# 次重试}}', { n: 3 })).toBe('3 次重试');
  });
});
