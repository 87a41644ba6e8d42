/**
 * `npm run replay -- FILE.json [--config JSON] [--expect]`
 *
 * Replays a scenario file headlessly and prints one JSON document on stdout:
 * `{ scenario, requests[], summary, wire[], invariants[], expectations? }` where each request has its
 * terminal state, reason, time (ms) and whether a final response exists, and each wire message
 * carries its schema check against the official MCP schema of the scenario's revision.
 *
 * Exit codes: 0 replayed; 1 bad input (unreadable file, invalid JSON or scenario — the error names
 * the field); 2 bad command line; 3 with --expect when an expectation of the file is not met.
 */
import { readFileSync } from 'node:fs';
import { parseAnyScenarioText } from '../sim/labs';
import { checkExpectation, replayRaces, withOverrides, type RacesTrace } from '../sim/races';
import { checkMessage } from '../wire/schemaCheck';
import { resilienceCli } from './resilienceReport';
import { ledgerCli } from './ledgerReport';
import { flowCli } from './flowReport';
import type { OpenDatabase } from '../sim/ledger/sql';
import type { Json, Scenario } from '../sim/types';
import type { Revision } from '../sim/mcp';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const USAGE = 'usage: npm run replay -- FILE.json [--config \'{"transport":"stdio"}\'] [--expect]';

/** Builds the report document for a replayed races trace. */
export function report(scenario: Scenario, trace: RacesTrace): Record<string, Json> {
  const revision = (scenario.config as { revision: Revision }).revision;
  const final = trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial;
  const methodOf = (key: string | undefined) => (key === undefined ? undefined : final.requests[final.indexOf[key]]?.method);
  const wire: Json[] = [];
  for (const step of trace.steps) {
    for (const e of step.effects) {
      const item: Record<string, Json> = { atMs: step.at, from: e.from, transport: e.transport };
      if (e.arrivesAt !== undefined) item.arrivesAtMs = e.arrivesAt;
      if (e.http !== undefined) item.http = e.http;
      if (e.message !== undefined) {
        item.message = e.message;
        const check = checkMessage(revision, e.message, methodOf(e.requestKey));
        item.schema = check.valid ? `valid ${check.def}` : `invalid ${check.def}: ${check.errors.join('; ')}`;
      }
      if (e.malformed) item.malformed = true;
      wire.push(item);
    }
  }
  return {
    scenario: { id: scenario.id, lab: scenario.lab, title: scenario.title, config: scenario.config as Json },
    requests: trace.outcome.requests.map((r) => ({
      requestId: r.requestId,
      method: r.method,
      state: r.state,
      reason: r.reason,
      atMs: r.atMs,
      finalResponse: r.finalResponse,
      responseFate: r.responseFate,
      cancelSignal: r.cancelSignal,
      serverState: r.serverState,
    })),
    summary: trace.outcome.summary as unknown as Json,
    wire,
    invariants: trace.invariants.map((i) => ({ name: i.name, holds: i.firstViolation === null, firstViolation: i.firstViolation })),
    steps: trace.steps.length,
    endAtMs: trace.endAt,
  };
}

/** Runs the CLI on `argv` (without node and script) and returns exit code and output. Never throws. */
export function main(argv: string[], readFile: (p: string) => string = (p) => readFileSync(p, 'utf8'), ledgerOpen?: OpenDatabase): CliResult {
  const files = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--config');
  const configIndex = argv.indexOf('--config');
  const wantExpect = argv.includes('--expect');
  const unknown = argv.filter((a) => a.startsWith('--') && a !== '--config' && a !== '--expect');
  if (files.length !== 1 || unknown.length > 0 || (configIndex >= 0 && argv[configIndex + 1] === undefined)) {
    return { code: 2, stdout: '', stderr: `${unknown.length ? `unknown option ${unknown[0]}\n` : ''}${USAGE}\n` };
  }
  let text: string;
  try {
    text = readFile(files[0]);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `error: cannot read ${files[0]}: ${(err as Error).message}\n` };
  }
  const parsed = parseAnyScenarioText(text);
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
    const merged = parseAnyScenarioText(JSON.stringify(withOverrides(scenario, overrides as Record<string, Json>)));
    if (!merged.ok) return { code: 1, stdout: '', stderr: `error: --config makes the scenario invalid:\n${merged.errors.map((e) => `  ${e}`).join('\n')}\n` };
    scenario = merged.scenario;
  }
  if (parsed.lab === 'resilience') return resilienceCli(scenario, wantExpect);
  if (parsed.lab === 'flow') return flowCli(scenario, wantExpect);
  if (parsed.lab === 'ledger') {
    // The ledger runs real SQL: the entry point loads sql.js (async) and passes an opener in.
    if (!ledgerOpen) return { code: 1, stdout: '', stderr: 'error: ledger scenarios need SQLite (sql.js); call main() with a database opener\n' };
    return ledgerCli(scenario, wantExpect, ledgerOpen);
  }
  const trace = replayRaces(scenario);
  const doc = report(scenario, trace);
  let code = 0;
  if (wantExpect) {
    const results = (scenario.expect ?? []).map((e) => {
      const mismatches = checkExpectation(replayRaces(withOverrides(scenario, e.overrides as Record<string, Json> | undefined)), e);
      if (mismatches.length) code = 3;
      return { label: e.label, met: mismatches.length === 0, mismatches: mismatches as unknown as Json };
    });
    doc.expectations = results;
  }
  return { code, stdout: JSON.stringify(doc, null, 2) + '\n', stderr: '' };
}

const isEntry = typeof process !== 'undefined' && process.argv[1] !== undefined && /replay\.ts$/.test(process.argv[1]);
if (isEntry) {
  // sql.js's Node build loads asynchronously, before the (synchronous) replay.
  const { loadSqlJsNode } = await import('../db/node');
  const { memoryOpener } = await import('../db/sqljs');
  const result = main(process.argv.slice(2), undefined, memoryOpener(await loadSqlJsNode()));
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
