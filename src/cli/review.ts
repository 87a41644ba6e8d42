/**
 * `review [--inputs FILE.json] [--transcript FILE] [--html] [--redact] [--base URL]`
 *
 * Writes the reliability review report (src/report) on stdout: Markdown, or with `--html` a
 * print-friendly HTML page. `--inputs` is the reviewer's inputs (`ReviewInputs`, see
 * src/report/types.ts) plus an optional `evidence` field:
 * `{ "runs": [{ "lab": "races", "scenario": "A-cancel-then-complete" | {…scenario…}, "overrides": {…} }],
 *    "practice": [{ "check": "result-immutable", "variant": "correct" }] }`.
 * Without evidence and without a transcript, the report is made from the lesson's runs (races A–D,
 * ledger B (BEGIN IMMEDIATE), C and D, flow R1 and F1 (disconnect), task T1, the result-immutable
 * practice check). `--transcript` imports a transcript in any of the four formats (src/wire/transcript).
 * `--redact` hashes arguments and results in every quoted wire message. Every link is a complete
 * address on `--base URL`, where the lab is served (default `http://localhost:5173/`, what
 * `npm start` serves, on `LAB_PORT` when that is set), so the links work from the saved file.
 *
 * Exit codes: 0 written; 1 unreadable input (a missing file, bad JSON, a field that is wrong — named —,
 * an unusable transcript) with the reason on stderr; 2 a bad command line (the usage on stderr).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAB_IDS, isLabId, labNeedsDatabase, type LabId } from '../sim/labIds';
import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import { withOverrides } from '../sim/races';
import type { Json, Scenario } from '../sim/types';
import { importTranscript, type Transcript } from '../wire/transcript';
import { buildReview, builtinWith, parseReviewInputs, renderHtml, renderMarkdown, replayEvidence, type Builtins, type LabRun, type PracticeRun, type ReviewInputs, type ReviewOpener } from '../report';

const USAGE = 'usage: review [--inputs FILE.json] [--transcript FILE] [--html] [--redact] [--base URL]';

/** Where `npm start` serves the lab: `http://localhost:<LAB_PORT or 5173>/` (the review's links default to it). */
export function defaultLinkBase(env: Record<string, string | undefined> = process.env): string {
  const port = env.LAB_PORT && /^\d+$/.test(env.LAB_PORT) ? env.LAB_PORT : '5173';
  return `http://localhost:${port}/`;
}

/** `--base URL` read: an http(s) address (its hash dropped), or the problem naming the option. */
function linkBaseOf(text: string): { ok: true; base: string } | { ok: false; error: string } {
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return { ok: false, error: `--base: must be the http(s) address the lab is served at, got ${JSON.stringify(text)} — e.g. --base https://example.org/mcp-lab/` };
  url.hash = '';
  return { ok: true, base: url.href };
}

/** Where the command writes; defaults to the process's streams. `readFile` and `open` are injectable for tests. */
export interface ReviewIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  readFile?: (file: string) => string;
  /** sql.js opener for ledger runs and practice checks (default: sql.js's Node build, loaded on demand). */
  open?: ReviewOpener;
  /** The environment (`LAB_PORT` picks the default `--base`); default `process.env`. */
  env?: Record<string, string | undefined>;
}

/** The repo's `public/scenarios`, from this module in `src/cli/` or from the bundle in `dist-cli/`. */
function scenariosRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const fromSource = path.resolve(here, '../../public/scenarios');
  return existsSync(fromSource) ? fromSource : path.resolve(here, '../public/scenarios');
}

/** Every built-in scenario of every lab, read from `public/scenarios/<lab>/*.json` and validated. Throws naming the file when one is invalid. */
export function loadBuiltinsFromDisk(root = scenariosRoot()): Builtins {
  const out = {} as Record<LabId, Scenario[]>;
  for (const lab of LAB_IDS) {
    const dir = path.join(root, lab);
    out[lab] = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
      .map((f) => {
        const r = parseScenario(JSON.parse(readFileSync(path.join(dir, f), 'utf8')), lab, LAB_SCHEMAS[lab]);
        if (!r.ok) throw new Error(`${lab}/${f}: ${r.errors.join('; ')}`);
        return r.scenario;
      });
  }
  return out;
}

/** The lesson's runs: the default evidence when none is given. */
export function lessonRuns(builtins: Builtins): { runs: LabRun[]; practice: PracticeRun[] } {
  const run = (lab: LabId, id: string, overrides?: Record<string, Json>): LabRun => ({ lab, scenario: builtinWith(builtins, lab, id, overrides) });
  return {
    runs: [
      run('races', 'A-cancel-then-complete'),
      run('races', 'B-complete-then-cancel'),
      run('races', 'C-progress-idle-maximum'),
      run('races', 'D-http-stream-close'),
      run('ledger', 'B-race-interleaved', { policy: 'immediate', busy: 'wait' }),
      run('ledger', 'C-no-key-retries'),
      run('ledger', 'D-same-key'),
      run('flow', 'R1-coalesce-one-token'),
      run('flow', 'F1-stalled-subscriber', { policy: 'disconnect' }),
      run('resilience', 'T1-abort-before-task-id'),
    ],
    practice: [{ check: 'result-immutable' }],
  };
}

class InputError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads the `evidence` field of an inputs file. Throws `InputError` naming the field. */
function readEvidence(value: unknown, builtins: Builtins): { runs: LabRun[]; practice: PracticeRun[] } {
  if (!isObj(value)) throw new InputError('evidence: must be an object { runs?, practice? }');
  const runs: LabRun[] = [];
  const rawRuns = value.runs ?? [];
  if (!Array.isArray(rawRuns)) throw new InputError('evidence.runs: must be a list');
  rawRuns.forEach((r, i) => {
    const at = `evidence.runs[${i}]`;
    if (!isObj(r) || !isLabId(r.lab)) throw new InputError(`${at}.lab: must be one of ${LAB_IDS.join(', ')}`);
    const lab = r.lab;
    let scenario: Scenario;
    if (typeof r.scenario === 'string') {
      const found = builtins[lab].find((s) => s.id === r.scenario);
      if (!found) throw new InputError(`${at}.scenario: no built-in ${lab} scenario "${r.scenario}"; known: ${builtins[lab].map((s) => s.id).join(', ')}`);
      scenario = found;
    } else {
      const parsed = parseScenario(r.scenario, lab, LAB_SCHEMAS[lab]);
      if (!parsed.ok) throw new InputError(`${at}.scenario: ${parsed.errors.join('; ')}`);
      scenario = parsed.scenario;
    }
    if (r.overrides !== undefined) {
      if (!isObj(r.overrides)) throw new InputError(`${at}.overrides: must be an object of config fields`);
      const merged = parseScenario(withOverrides(scenario, r.overrides as Record<string, Json>), lab, LAB_SCHEMAS[lab]);
      if (!merged.ok) throw new InputError(`${at}.overrides: ${merged.errors.join('; ')}`);
      scenario = merged.scenario;
    }
    runs.push({ lab, scenario });
  });
  const rawPractice = value.practice ?? [];
  if (!Array.isArray(rawPractice)) throw new InputError('evidence.practice: must be a list');
  const practice = rawPractice.map((p, i) => {
    if (!isObj(p) || typeof p.check !== 'string') throw new InputError(`evidence.practice[${i}].check: must be a practice check id`);
    return { check: p.check, ...(typeof p.variant === 'string' ? { variant: p.variant } : {}) };
  });
  return { runs, practice };
}

async function defaultOpener(): Promise<ReviewOpener> {
  const { loadSqlJsNode } = await import('../db/node');
  const { openBytes, wrapSqlJs } = await import('../db/sqljs');
  const SQL = await loadSqlJsNode();
  return ((bytes?: Uint8Array) => (bytes ? openBytes(SQL, bytes) : wrapSqlJs(new SQL.Database()))) as ReviewOpener;
}

/** Runs `review` on `argv` (without node and script). Returns the exit code; never throws. */
export async function reviewCommand(argv: string[], io: ReviewIo = {}): Promise<number> {
  const stdout = io.stdout ?? ((t: string) => void process.stdout.write(t));
  const stderr = io.stderr ?? ((t: string) => void process.stderr.write(t));
  const readFile = io.readFile ?? ((f: string) => readFileSync(f, 'utf8'));
  let inputsFile: string | undefined;
  let transcriptFile: string | undefined;
  let html = false;
  let redact = false;
  let linkBase = defaultLinkBase(io.env);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--html') html = true;
    else if (a === '--redact') redact = true;
    else if (a === '--base' && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) {
      const r = linkBaseOf(argv[++i]);
      if (!r.ok) {
        stderr(`${r.error}\n${USAGE}\n`);
        return 2;
      }
      linkBase = r.base;
    }
    else if ((a === '--inputs' || a === '--transcript') && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) {
      if (a === '--inputs') inputsFile = argv[++i];
      else transcriptFile = argv[++i];
    } else {
      stderr(`${a.startsWith('--') ? `unknown or incomplete option ${a}` : `unexpected argument ${a}`}\n${USAGE}\n`);
      return 2;
    }
  }
  try {
    const builtins = loadBuiltinsFromDisk();
    let inputs: ReviewInputs | undefined;
    let evidence: { runs: LabRun[]; practice: PracticeRun[] } | undefined;
    if (inputsFile !== undefined) {
      let value: unknown;
      try {
        value = JSON.parse(readFile(inputsFile));
      } catch (err) {
        throw new InputError(`${inputsFile}: cannot read it as JSON: ${(err as Error).message}`);
      }
      if (!isObj(value)) throw new InputError(`${inputsFile}: must be a JSON object of the reviewer's inputs`);
      const { evidence: rawEvidence, ...rest } = value;
      const parsed = parseReviewInputs(rest);
      if (!parsed.ok) throw new InputError(`${inputsFile}:\n  ${parsed.errors.join('\n  ')}`);
      inputs = parsed.inputs;
      if (rawEvidence !== undefined) evidence = readEvidence(rawEvidence, builtins);
    }
    let transcript: Transcript | undefined;
    if (transcriptFile !== undefined) {
      let text: string;
      try {
        text = readFile(transcriptFile);
      } catch (err) {
        throw new InputError(`${transcriptFile}: cannot read it: ${(err as Error).message}`);
      }
      const imported = importTranscript(text);
      if (!imported.ok) throw new InputError(`${transcriptFile}: ${imported.reason}`);
      transcript = imported.transcript;
    }
    evidence ??= transcript ? { runs: [], practice: [] } : lessonRuns(builtins);
    const needsSql = evidence.runs.some((r) => labNeedsDatabase(r.lab)) || evidence.practice.length > 0;
    const open = io.open ?? (needsSql ? await defaultOpener() : undefined);
    let replayed;
    try {
      replayed = replayEvidence(evidence, builtins, open);
    } catch (err) {
      throw new InputError((err as Error).message);
    }
    const report = buildReview({ inputs, runs: replayed.runs, practice: replayed.practice, transcript, builtins, redact, linkBase });
    stdout(html ? renderHtml(report.document) : renderMarkdown(report.document));
    return 0;
  } catch (err) {
    stderr(`error: ${(err as Error).message}\n`);
    return 1;
  }
}
