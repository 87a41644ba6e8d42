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
import { LAB_IDS, type LabId } from '../sim/labIds';
import type { OpenDatabase } from '../sim/ledger/sql';
import type { LabKit } from './kits/kit';
import { replayWith, type CliResult } from './replayCore';
import { replayCommand } from './replayCommand';
import { LAB_KITS } from './reports';

export { report } from './racesReport';
export type { CliResult } from './replayCore';
export { replayCommand } from './replayCommand';

/** Every lab's kit, loaded from the registry at import (the bundled `replay` loads only the file's own: `replayCommand.ts`). */
const ALL_KITS = Object.fromEntries(await Promise.all(LAB_IDS.map(async (id) => [id, await LAB_KITS[id]()] as const))) as Record<LabId, LabKit>;

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
  return replayWith(argv, ALL_KITS, readFile, ledgerOpen, writeFile);
}

// Also runnable directly (`tsx src/cli/replay.ts FILE`), as before `main.ts` existed.
const isEntry = typeof process !== 'undefined' && process.argv[1] !== undefined && /replay\.ts$/.test(process.argv[1]);
if (isEntry) process.exitCode = await replayCommand(process.argv.slice(2));
