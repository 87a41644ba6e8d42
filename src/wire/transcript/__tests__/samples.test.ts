import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transcriptFiles } from '../../../../scripts/gen-transcripts';
import { importTranscript } from '../parse';
import { checkTranscript } from '../checks';
import { transcriptToScenario } from '../toScenario';
import { replayRaces } from '../../../sim/races';
import { TRANSCRIPT_FORMATS } from '../types';
import type { TranscriptSample } from '../samples';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../public/transcripts');
const files = transcriptFiles();
const manifest = JSON.parse(files.get('index.json')!) as { samples: Omit<TranscriptSample, 'text'>[]; reserved: { dir: string }[] };

describe('sample transcripts in public/transcripts', () => {
  it('are fresh: `npm run transcripts` would write the same bytes', () => {
    for (const [file, text] of files) {
      const p = path.join(dir, file);
      expect(existsSync(p), `${file} is missing — run npm run transcripts`).toBe(true);
      expect(readFileSync(p, 'utf8'), `${file} is stale — run npm run transcripts`).toBe(text);
    }
    // No stray sample the script no longer writes (the reserved sdk/ folder aside).
    const onDisk = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
      .filter((f) => !f.startsWith('sdk') && f !== 'README.md');
    expect(onDisk.sort()).toEqual([...files.keys()].sort());
  });

  it('cover every format, with a clean sample and a broken one', () => {
    for (const format of TRANSCRIPT_FORMATS) {
      const of = manifest.samples.filter((s) => s.format === format);
      expect(of.some((s) => s.expectChecks.length === 0), `${format}: a clean sample`).toBe(true);
      expect(of.some((s) => s.expectChecks.length > 0), `${format}: a sample that trips a check`).toBe(true);
    }
    expect(manifest.reserved.map((r) => r.dir)).toEqual(['sdk/']);
  });

  for (const sample of manifest.samples) {
    it(`${sample.file}: detected as ${sample.format}, trips exactly ${sample.expectChecks.join(', ') || 'nothing'}, opens as a scenario`, () => {
      const r = importTranscript(files.get(sample.file)!);
      if (!r.ok) throw new Error(r.reason);
      expect(r.transcript.format).toBe(sample.format);
      expect(r.transcript.skipped).toEqual([]);
      const report = checkTranscript(r.transcript, sample.checkOptions ?? {});
      expect([...new Set(report.findings.map((f) => f.check))].sort()).toEqual(sample.expectChecks);
      expect(report.clean).toBe(sample.expectChecks.length === 0);
      const s = transcriptToScenario(r.transcript);
      if (!s.ok) throw new Error(s.errors.join('; '));
      expect(s.scenario.events.length).toBeGreaterThan(0);
      expect(replayRaces(s.scenario).steps.length).toBeGreaterThan(0);
    });
  }
});
