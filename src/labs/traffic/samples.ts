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
  /** What it shows: its source scenario and the checks it trips. */
  label: string;
}

const texts = import.meta.glob(['/public/transcripts/**/*.log', '/public/transcripts/**/*.json', '/public/transcripts/**/*.jsonl', '!/public/transcripts/index.json'], { query: '?raw', import: 'default' }) as Record<string, () => Promise<string>>;

const fromManifest: TrafficSample[] = (manifest.samples as { file: string; format: string; source: { scenario: string }; expectChecks: string[] }[]).map((s) => ({
  file: s.file,
  format: s.format,
  label: `${s.file.split('/').pop()} — ${s.source.scenario}${s.expectChecks.length ? `; trips ${s.expectChecks.join(', ')}` : '; clean'}`,
}));

/** Every sample: the manifest's, then any other file in the folder (e.g. the SDK-recorded one). */
export const TRAFFIC_SAMPLES: readonly TrafficSample[] = [
  ...fromManifest,
  ...Object.keys(texts)
    .map((k) => k.replace('/public/transcripts/', ''))
    .filter((f) => !fromManifest.some((s) => s.file === f))
    .sort()
    .map((file) => ({ file, format: 'auto', label: `${file} — recorded from the official SDK` })),
];

/** The text of sample `file` (a path under public/transcripts/), or null when there is none. */
export async function loadSample(file: string): Promise<string | null> {
  const load = texts[`/public/transcripts/${file}`];
  return load ? load() : null;
}
