/**
 * `npm run transcripts`: writes the sample transcripts under public/transcripts/ (one folder per
 * format) and public/transcripts/index.json, generated from the races lab's built-in scenarios.
 * The files are deterministic; src/wire/transcript/__tests__/samples.test.ts fails when they are stale.
 * public/transcripts/sdk/ is left to the official-SDK recording (not written here).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario } from '../src/sim/scenario';
import { RACES_SCHEMAS } from '../src/sim/races';
import type { Scenario } from '../src/sim/types';
import { buildTranscriptSamples, samplesManifest } from '../src/wire/transcript/samples';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'public/transcripts');

/** Loads the built-in races scenario `id` from public/scenarios/races (throws naming the errors). */
export function loadRacesScenario(id: string): Scenario {
  const dir = path.join(root, 'public/scenarios/races');
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.json')) continue;
    const r = parseScenario(JSON.parse(readFileSync(path.join(dir, f), 'utf8')), 'races', RACES_SCHEMAS);
    if (!r.ok) throw new Error(`${f}: ${r.errors.join('; ')}`);
    if (r.scenario.id === id) return r.scenario;
  }
  throw new Error(`no races scenario ${id}`);
}

/** The files the script writes: path under public/transcripts → text. */
export function transcriptFiles(): Map<string, string> {
  const samples = buildTranscriptSamples(loadRacesScenario);
  const files = new Map<string, string>();
  for (const s of samples) files.set(s.file, s.text);
  files.set('index.json', `${JSON.stringify(samplesManifest(samples), null, 2)}\n`);
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [file, text] of transcriptFiles()) {
    const p = path.join(outDir, file);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
    console.log(`wrote public/transcripts/${file}`);
  }
}
