/**
 * The sample transcripts of `public/transcripts/` (written by `npm run transcripts` from the races
 * lab's scenarios, plus one recorded from the official SDK), for the sample picker: the manifest is
 * bundled, each file's text is a lazy chunk loaded when picked (so it works offline, like the labs'
 * built-in scenarios).
 */
import manifest from '../../../public/transcripts/index.json';

export interface TrafficSample {
  file: string;
  format: string;
  /** What it shows: its source scenario and the checks it trips (with the maximum it needs, when it needs one). */
  label: string;
  /** The maximum call time (ms) its checks need, set in the page's "Maximum" box when the sample is picked; null when none. */
  maxMs: number | null;
}

const texts = import.meta.glob(['/public/transcripts/**/*.log', '/public/transcripts/**/*.json', '/public/transcripts/**/*.jsonl', '!/public/transcripts/index.json'], { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

const fromManifest: TrafficSample[] = (manifest.samples as { file: string; format: string; source: { scenario: string }; expectChecks: string[]; checkOptions?: { maxMs?: number } }[]).map((s) => {
  const maxMs = s.checkOptions?.maxMs ?? null;
  // A check that needs a maximum call time trips only with one: picking the sample sets it (walkthrough: the label promised a finding the default options never showed).
  const needs = maxMs === null ? '' : ` (maximum ${maxMs.toLocaleString('en-US')} ms, set when picked)`;
  return {
    file: s.file,
    format: s.format,
    label: `${s.file.split('/').pop()} — ${s.source.scenario}${s.expectChecks.length ? `; trips ${s.expectChecks.join(', ')}${needs}` : '; clean'}`,
    maxMs,
  };
});

/** Every sample: the manifest's, then any other file in the folder (e.g. the SDK-recorded one). */
export const TRAFFIC_SAMPLES: readonly TrafficSample[] = [
  ...fromManifest,
  ...Object.keys(texts)
    .map((k) => k.replace('/public/transcripts/', ''))
    .filter((f) => !fromManifest.some((s) => s.file === f))
    .sort()
    .map((file) => ({ file, format: 'auto', label: `${file} — recorded from the official SDK`, maxMs: null })),
];

/** The text of sample `file` (a path under public/transcripts/), or null when there is none. */
export async function loadSample(file: string): Promise<string | null> {
  const load = texts[`/public/transcripts/${file}`];
  return load ? load() : null;
}
