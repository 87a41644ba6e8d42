/**
 * The `replay` command over the labs it is given (`replay.ts` gives all four; the bundled command,
 * `replayCommand.ts`, loads only the file's own lab): see `replay.ts` for the document it prints
 * and its exit codes.
 */
import { withOverrides } from '../sim/expectation';
import { isLabId, labNeedsDatabase, type LabId } from '../sim/labIds';
import type { OpenDatabase } from '../sim/ledger/sql';
import { parseAnyScenarioTextWith } from '../sim/scenario';
import { parseAnyScenarioTextQuick } from './fastScenario';
import type { Json } from '../sim/types';
import type { LabKit } from './kits/kit';
import { expectationResults } from './reports';

/**
 * What one run printed: exit code, stdout, stderr; `needsLab` when the file's lab was not among
 * the kits given (load it and run again); `document` (with `stdout` empty) when the caller asked to
 * print the JSON document itself (`printJsonDocument`).
 */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  needsLab?: LabId;
  document?: Record<string, Json>;
}

const USAGE = 'usage: npm run replay -- FILE.json [--config \'{"transport":"stdio"}\'] [--expect] [--trace OUT.json]';

const VALUE_OPTIONS = new Set(['--config', '--trace']);

/** The error line `replay` gives for a ledger file without a database opener (the entry point then loads sql.js). */
export const LEDGER_NEEDS_SQLITE = 'error: ledger scenarios need SQLite (sql.js); call main() with a database opener\n';

let lastJson: { text: string; value: unknown } | undefined;
/** `JSON.parse` that remembers its last text, so a second run over the same file (after loading its lab) does not parse it again. Throws like `JSON.parse`. */
function parseJsonOnce(text: string): unknown {
  if (lastJson?.text !== text) lastJson = { text, value: JSON.parse(text) };
  return lastJson.value;
}

/**
 * Runs `replay` on `argv` (without node and script) with the labs of `kits`; never throws for bad
 * input. A file of a lab missing from `kits` returns `needsLab` (code 1, nothing printed). With
 * `returnDocument` the JSON document comes back as `document` instead of as `stdout` text.
 * `writeFile` receives the `--trace` document (path, text).
 */
export function replayWith(
  argv: string[],
  kits: Partial<Record<LabId, LabKit>>,
  readFile: (p: string) => string,
  ledgerOpen: OpenDatabase | undefined,
  writeFile: (p: string, text: string) => void,
  returnDocument = false,
): CliResult {
  const files = argv.filter((a, i) => !a.startsWith('--') && !VALUE_OPTIONS.has(argv[i - 1]));
  const configIndex = argv.indexOf('--config');
  const traceIndex = argv.indexOf('--trace');
  const wantExpect = argv.includes('--expect');
  const unknown = argv.filter((a) => a.startsWith('--') && !VALUE_OPTIONS.has(a) && a !== '--expect');
  const missingValue = [configIndex, traceIndex].some((i) => i >= 0 && (argv[i + 1] === undefined || argv[i + 1].startsWith('--')));
  if (files.length !== 1 || unknown.length > 0 || missingValue) {
    // Say what is missing before the usage line (walkthrough: "--trace" with no file printed the usage alone).
    const missing = [configIndex, traceIndex].filter((i) => i >= 0 && (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))).map((i) => `${argv[i]} needs a value: ${argv[i] === '--trace' ? 'the file to write the trace to (--trace OUT.json)' : 'a JSON object of settings (--config \'{"transport":"stdio"}\')'}\n`);
    return { code: 2, stdout: '', stderr: `${unknown.length ? `unknown option ${unknown[0]}\n` : ''}${missing.join('')}${USAGE}\n` };
  }
  let text: string;
  try {
    text = readFile(files[0]);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `error: cannot read ${files[0]}: ${(err as Error).message}\n` };
  }
  const lab = labField(text);
  if (lab !== undefined && !kits[lab]) return { code: 1, stdout: '', stderr: '', needsLab: lab };
  const parsed = parseAnyScenarioTextQuick(text, (id) => kits[id]!.schemas, parseJsonOnce);
  lastJson = undefined; // the raw value is not needed again: let it go before the replay
  if (!parsed.ok) {
    return { code: 1, stdout: '', stderr: `error: ${files[0]} is not a valid scenario:\n${parsed.errors.map((e) => `  ${e}`).join('\n')}\n` };
  }
  const kit = kits[parsed.lab!]!;
  let scenario = parsed.scenario;
  if (configIndex >= 0) {
    let overrides: unknown;
    try {
      overrides = JSON.parse(argv[configIndex + 1]);
    } catch (err) {
      return { code: 2, stdout: '', stderr: `error: --config is not valid JSON: ${(err as Error).message}\n` };
    }
    const merged = parseAnyScenarioTextWith(JSON.stringify(withOverrides(scenario, overrides as Record<string, Json>)), (id) => kits[id]!.schemas);
    if (!merged.ok) return { code: 1, stdout: '', stderr: `error: --config makes the scenario invalid:\n${merged.errors.map((e) => `  ${e}`).join('\n')}\n` };
    scenario = merged.scenario;
  }
  // The ledger runs real SQL: the entry point loads sql.js (async) and passes an opener in.
  if (labNeedsDatabase(parsed.lab!) && !ledgerOpen) return { code: 1, stdout: '', stderr: LEDGER_NEEDS_SQLITE };
  const definition = kit.definition({ open: ledgerOpen });
  const doc = kit.report.build(definition, scenario);
  let code = 0;
  let notMet = '';
  if (wantExpect) {
    const { allMet, results } = expectationResults(definition, scenario, kit.report.expectKeep);
    doc.expectations = results;
    if (!allMet) code = 3;
    notMet = unmetLines(results);
  }
  if (traceIndex >= 0) {
    const full = definition.replay(scenario, { keep: 'steps' }) as { steps: { state?: unknown }[] };
    const steps = full.steps.map(({ state: _state, ...rest }) => rest);
    try {
      writeFile(argv[traceIndex + 1], JSON.stringify({ scenario: { id: scenario.id, lab: parsed.lab! }, steps }) + '\n');
    } catch (err) {
      return { code: 1, stdout: '', stderr: `error: --trace: cannot write ${argv[traceIndex + 1]}: ${(err as Error).message}\n` };
    }
  }
  if (returnDocument) return { code, stdout: '', stderr: notMet, document: doc };
  return { code, stdout: JSON.stringify(doc, null, 2) + '\n', stderr: notMet };
}

/**
 * One stderr line per expectation of `--expect` that is not met, naming what differs, e.g.
 * `expectation not met: "call 1 completes" — requests[1].atMs is 300, expected 301`; '' when
 * all are met (the whole comparison stays in the stdout document's `expectations`).
 */
function unmetLines(results: Json[]): string {
  const shown = (v: Json | undefined) => JSON.stringify(v ?? null);
  return results
    .map((r) => r as { label?: Json; met?: Json; mismatches?: Json })
    .filter((r) => r.met === false)
    .map((r) => {
      const diffs = (Array.isArray(r.mismatches) ? r.mismatches : []) as { field?: Json; expected?: Json; actual?: Json }[];
      return `expectation not met: ${shown(r.label)} — ${diffs.map((d) => `${String(d.field)} is ${shown(d.actual)}, expected ${shown(d.expected)}`).join('; ')}\n`;
    })
    .join('');
}

/** The file's `lab` when the text is JSON with a known lab id there; undefined otherwise (the parse then words the problem). */
function labField(text: string): LabId | undefined {
  try {
    const value = parseJsonOnce(text);
    const lab = value !== null && typeof value === 'object' ? (value as { lab?: unknown }).lab : undefined;
    return isLabId(lab) ? lab : undefined;
  } catch {
    return undefined;
  }
}

/** How many elements of a top-level array `jsonDocumentPieces` stringifies in one `JSON.stringify` call. */
const ITEMS_PER_CALL = 128;

/**
 * The text of `JSON.stringify(doc, null, 2) + '\n'`, in pieces of about 64 KB: a top-level array
 * is stringified `ITEMS_PER_CALL` elements at a time, each run as `{ "<key>": [ …run ] }` so that
 * `JSON.stringify` itself indents the elements at the document's depth (the wrapper's first and
 * last lines are cut off), so the process never holds the whole text of a 10,000-message
 * document (nor its UTF-8 copy) and no text is re-indented afterwards.
 */
export function* jsonDocumentPieces(doc: Record<string, Json>): Generator<string> {
  let pending = '{\n';
  const keys = Object.keys(doc).filter((k) => doc[k] !== undefined);
  for (const [i, key] of keys.entries()) {
    const value = doc[key];
    const comma = i < keys.length - 1 ? ',' : '';
    if (Array.isArray(value) && value.length > 0) {
      const head = `  ${JSON.stringify(key)}: [\n`;
      pending += head;
      for (let start = 0; start < value.length; start += ITEMS_PER_CALL) {
        const end = Math.min(start + ITEMS_PER_CALL, value.length);
        // '{\n' + head + the run's elements + '\n  ]\n}'
        const run = JSON.stringify({ [key]: value.slice(start, end) }, null, 2);
        pending += `${run.slice(2 + head.length, run.length - 6)}${end < value.length ? ',' : ''}\n`;
        if (pending.length >= 65_536) {
          yield pending;
          pending = '';
        }
      }
      pending += `  ]${comma}\n`;
    } else pending += `  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')}${comma}\n`;
  }
  yield `${pending}}\n`;
}

/** Writes `doc` exactly as `JSON.stringify(doc, null, 2) + '\n'` would print it, piece by piece (`jsonDocumentPieces`) through `write`. */
export function writeJsonDocument(doc: Record<string, Json>, write: (text: string) => void): void {
  for (const piece of jsonDocumentPieces(doc)) write(piece);
}
