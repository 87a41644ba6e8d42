/**
 * `npm run replay -- FILE.json [--config JSON] [--expect] [--trace OUT.json]`
 *
 * Replays a scenario file headlessly and prints one JSON document on stdout:
 * `{ scenario, requests[], summary, wire[], invariants[], expectations? }` where each request has its
 * terminal state, reason, time (ms) and whether a final response exists, and each wire message
 * carries its schema check against the official MCP schema of the scenario's revision.
 *
 * The replay runs on the fast path (`keep: 'effects'`: no per-step states or notes); `--trace
 * OUT.json` also writes the per-step trace `{ steps: [{ index, at, entry, why, rule, effects,
 * ignored, violations }] }` to OUT.json (a second, full replay — only when asked).
 *
 * Exit codes: 0 replayed; 1 bad input (unreadable file, invalid JSON or scenario — the error names
 * the field); 2 bad command line; 3 with --expect when an expectation of the file is not met.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { LAB_DEFINITIONS, parseAnyScenarioText as parseAny } from '../sim/labs';
import { withOverrides } from '../sim/expectation';
import type { OpenDatabase } from '../sim/ledger/sql';
import type { Json } from '../sim/types';
import { expectationResults, LAB_REPORTS } from './reports';

export { report } from './racesReport';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const USAGE = 'usage: npm run replay -- FILE.json [--config \'{"transport":"stdio"}\'] [--expect] [--trace OUT.json]';

const VALUE_OPTIONS = new Set(['--config', '--trace']);

/**
 * Runs the CLI on `argv` (without node and script) and returns exit code and output. Never throws
 * for bad input. `writeFile` receives the `--trace` document (path, text).
 */
export function main(
  argv: string[],
  readFile: (p: string) => string = (p) => readFileSync(p, 'utf8'),
  ledgerOpen?: OpenDatabase,
  writeFile: (p: string, text: string) => void = (p, text) => writeFileSync(p, text),
): CliResult {
  const files = argv.filter((a, i) => !a.startsWith('--') && !VALUE_OPTIONS.has(argv[i - 1]));
  const configIndex = argv.indexOf('--config');
  const traceIndex = argv.indexOf('--trace');
  const wantExpect = argv.includes('--expect');
  const unknown = argv.filter((a) => a.startsWith('--') && !VALUE_OPTIONS.has(a) && a !== '--expect');
  const missingValue = [configIndex, traceIndex].some((i) => i >= 0 && (argv[i + 1] === undefined || argv[i + 1].startsWith('--')));
  if (files.length !== 1 || unknown.length > 0 || missingValue) {
    return { code: 2, stdout: '', stderr: `${unknown.length ? `unknown option ${unknown[0]}\n` : ''}${USAGE}\n` };
  }
  let text: string;
  try {
    text = readFile(files[0]);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `error: cannot read ${files[0]}: ${(err as Error).message}\n` };
  }
  const parsed = parseAny(text);
  if (!parsed.ok) {
    return { code: 1, stdout: '', stderr: `error: ${files[0]} is not a valid scenario:\n${parsed.errors.map((e) => `  ${e}`).join('\n')}\n` };
  }
  let scenario = parsed.scenario;
  if (configIndex >= 0) {
    let overrides: unknown;
    try {
      overrides = JSON.parse(argv[configIndex + 1]);
    } catch (err) {
      return { code: 2, stdout: '', stderr: `error: --config is not valid JSON: ${(err as Error).message}\n` };
    }
    const merged = parseAny(JSON.stringify(withOverrides(scenario, overrides as Record<string, Json>)));
    if (!merged.ok) return { code: 1, stdout: '', stderr: `error: --config makes the scenario invalid:\n${merged.errors.map((e) => `  ${e}`).join('\n')}\n` };
    scenario = merged.scenario;
  }
  const lab = parsed.lab!;
  // The ledger runs real SQL: the entry point loads sql.js (async) and passes an opener in.
  if (lab === 'ledger' && !ledgerOpen) return { code: 1, stdout: '', stderr: 'error: ledger scenarios need SQLite (sql.js); call main() with a database opener\n' };
  const definition = LAB_DEFINITIONS[lab]({ open: ledgerOpen });
  const labReport = LAB_REPORTS[lab];
  const doc = labReport.build(definition, scenario);
  let code = 0;
  if (wantExpect) {
    const { allMet, results } = expectationResults(definition, scenario, labReport.expectKeep);
    doc.expectations = results;
    if (!allMet) code = 3;
  }
  if (traceIndex >= 0) {
    const full = definition.replay(scenario, { keep: 'steps' }) as { steps: { state?: unknown }[] };
    const steps = full.steps.map(({ state: _state, ...rest }) => rest);
    try {
      writeFile(argv[traceIndex + 1], JSON.stringify({ scenario: { id: scenario.id, lab }, steps }) + '\n');
    } catch (err) {
      return { code: 1, stdout: '', stderr: `error: --trace: cannot write ${argv[traceIndex + 1]}: ${(err as Error).message}\n` };
    }
  }
  return { code, stdout: JSON.stringify(doc, null, 2) + '\n', stderr: '' };
}

/**
 * The `replay` subcommand of `src/cli/main.ts`: runs `main` and prints. sql.js's Node build is
 * loaded only for a ledger file (it costs startup time every other lab does not need).
 */
export async function replayCommand(argv: string[]): Promise<number> {
  const texts = new Map<string, string>();
  const readFile = (p: string) => {
    if (!texts.has(p)) texts.set(p, readFileSync(p, 'utf8'));
    return texts.get(p)!;
  };
  let result = main(argv, readFile);
  if (result.code === 1 && result.stderr.startsWith('error: ledger scenarios need SQLite')) {
    const { loadSqlJsNode } = await import('../db/node');
    const { memoryOpener } = await import('../db/sqljs');
    result = main(argv, readFile, memoryOpener(await loadSqlJsNode()));
  }
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  return result.code;
}

// Also runnable directly (`tsx src/cli/replay.ts FILE`), as before `main.ts` existed.
const isEntry = typeof process !== 'undefined' && process.argv[1] !== undefined && /replay\.ts$/.test(process.argv[1]);
if (isEntry) process.exitCode = await replayCommand(process.argv.slice(2));
