import { readFileSync, writeFileSync } from 'node:fs';
import type { LabId } from '../sim/labIds';
import type { OpenDatabase } from '../sim/ledger/sql';
import type { LabKit } from './kits/kit';
import { LAB_KITS } from './reports';
import { once } from 'node:events';
import { jsonDocumentPieces, LEDGER_NEEDS_SQLITE, replayWith, type CliResult } from './replayCore';


/**
 * The `replay` subcommand of `src/cli/main.ts` (see `replay.ts` for what it prints): loads the
 * file's lab, runs it and prints; resolves to the exit code. sql.js's Node build is loaded only
 * for a ledger file (it costs startup time every other lab does not need).
 */
export async function replayCommand(argv: string[]): Promise<number> {
  const texts = new Map<string, string>();
  const readFile = (p: string) => {
    if (!texts.has(p)) texts.set(p, readFileSync(p, 'utf8'));
    return texts.get(p)!;
  };
  const kits: Partial<Record<LabId, LabKit>> = {};
  let ledgerOpen: OpenDatabase | undefined;
  const run = () => replayWith(argv, kits, readFile, ledgerOpen, (p, text) => writeFileSync(p, text), true);
  let result: CliResult = run();
  if (result.needsLab) {
    kits[result.needsLab] = await LAB_KITS[result.needsLab]();
    result = run();
  }
  if (result.code === 1 && result.stderr === LEDGER_NEEDS_SQLITE) {
    const { loadSqlJsNode } = await import('../db/node');
    const { memoryOpener } = await import('../db/sqljs');
    ledgerOpen = memoryOpener(await loadSqlJsNode());
    result = run();
  }
  // A slow reader (a pipe) gets the document as fast as it reads: pieces wait for 'drain' instead of queueing in memory.
  if (result.document) for (const piece of jsonDocumentPieces(result.document)) if (!process.stdout.write(piece)) await once(process.stdout, 'drain');
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  return result.code;
}
