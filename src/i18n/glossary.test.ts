import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY, SEED_OF, type GlossaryLang } from './glossary';

/** The seeds live beside the repository (`../shared/seeds/`), as in CI. */
const SEEDS = path.resolve(import.meta.dirname, '../../../shared/seeds');
const LANGS = Object.keys(SEED_OF) as GlossaryLang[];

function seedText(lang: GlossaryLang): string {
  const file = path.join(SEEDS, SEED_OF[lang]);
  if (!existsSync(file)) {
    throw new Error(`Seed ${SEED_OF[lang]} not found at ${file}: the glossary test reads the source documents from ../shared/seeds/ (CI has that folder; check it out beside the repository).`);
  }
  return readFileSync(file, 'utf8');
}

describe('glossary', () => {
  it('finds the seeds folder', () => {
    expect(existsSync(SEEDS), `../shared/seeds/ missing (looked in ${SEEDS})`).toBe(true);
  });

  it('has unique ids and an English term for every concept', () => {
    const ids = GLOSSARY.map((g) => g.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const g of GLOSSARY) expect(g.en.trim()).not.toBe('');
  });

  it('covers the concepts of issue 25', () => {
    const ids = new Set(GLOSSARY.map((g) => g.id));
    for (const id of ['timeout', 'idle-timeout', 'maximum-timeout', 'cancellation', 'idempotency-key', 'retry', 'retry-budget', 'circuit-breaker', 'half-open', 'jitter', 'full-jitter', 'equal-jitter', 'decorrelated-jitter', 'back-pressure', 'degraded-mode', 'progress', 'task', 'stream', 'reconnect', 'thundering-herd']) {
      expect(ids.has(id), id).toBe(true);
    }
  });

  for (const lang of LANGS) {
    it(`quotes ${SEED_OF[lang]} exactly: every sentence, locating phrase and term appears in it`, () => {
      const text = seedText(lang);
      let quoted = 0;
      for (const g of GLOSSARY) {
        const use = g.docs[lang];
        if (!use) continue;
        quoted++;
        expect(text.includes(use.sentence), `${g.id} (${lang}) sentence not in seed: ${use.sentence}`).toBe(true);
        expect(text.includes(use.near), `${g.id} (${lang}) locating phrase not in seed: ${use.near}`).toBe(true);
        expect(text.includes(use.term), `${g.id} (${lang}) term not in seed: ${use.term}`).toBe(true);
      }
      expect(quoted).toBeGreaterThan(5);
    });
  }

  it('gives the catalogues a term for every concept in every language', () => {
    for (const g of GLOSSARY) {
      for (const lang of LANGS) expect(g.lab?.[lang] ?? g.docs[lang]?.term, `${g.id} has no ${lang} term`).toBeTruthy();
    }
  });
});
