/**
 * `npm run chaos -- FILE [--seeds N] [--first-seed S] [--json] [--expect]`
 *
 * Runs the scenario in FILE (any lab) under N seeded chaos runs (default 1000; the faults of the
 * retry-storm postmortem's chaos list, src/sim/chaos) and prints every failing seed as one JSON line
 * (`{"seed","violated","faults"}`) followed by a one-line summary; `--json` prints one JSON document
 * instead (`{ runs: [SwarmResult, …] }`). `--expect` also runs every `expect` block's config
 * overrides of the file (one run each, labelled). Seeds run from `--first-seed` (default 0).
 *
 * Exit codes: 0 no safety invariant broke; 3 some seed broke a safety invariant (liveness failures
 * are reported but never fail); 1 unreadable input (missing file, invalid JSON or scenario — one
 * line naming the field); 2 bad command line.
 */
import { readFile } from 'node:fs/promises';
import { mergeConfig } from '../sim/replay';
import { labNeedsDatabase } from '../sim/labIds';
import { parseAnyScenarioText } from '../sim/labs';
import type { OpenDatabase } from '../sim/ledger/sql';
import type { Scenario } from '../sim/types';
import { describeFault, swarm, type SwarmResult } from '../sim/chaos';

const USAGE = 'usage: npm run chaos -- FILE.json [--seeds N] [--first-seed S] [--json] [--expect]';

/** Where the command writes; defaults to the process's stdout and stderr. */
export interface ChaosIo {
  out(text: string): void;
  err(text: string): void;
  /** Opener of fresh sql.js databases for ledger scenarios (default: sql.js's Node build). */
  open?: () => Promise<OpenDatabase>;
}

const processIo: ChaosIo = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
};

async function nodeOpener(): Promise<OpenDatabase> {
  const [{ loadSqlJsNode }, { memoryOpener }] = await Promise.all([import('../db/node'), import('../db/sqljs')]);
  return memoryOpener(await loadSqlJsNode());
}

function intFlag(argv: string[], name: string, min: number, max: number): number | undefined | string {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const raw = argv[i + 1];
  const n = raw === undefined ? NaN : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) return `${name}: must be an integer in [${min}, ${max}], got ${raw ?? 'nothing'}`;
  return n;
}

function summaryLine(label: string, r: SwarmResult): string {
  const live = Object.entries(r.liveness.byInvariant).map(([k, v]) => `${k} ×${v.seeds} (smallest seed ${v.smallestSeed})`);
  const safety = Object.entries(r.safety).map(([k, v]) => `${k} ×${v.seeds} (smallest seed ${v.smallestSeed})`);
  return (
    `chaos: ${r.lab} ${r.scenarioId}${label} — ${r.seedsRun} seeds from ${r.firstSeed}: ` +
    (r.failingSeeds.length === 0 ? 'no safety invariant broke' : `${r.failingSeeds.length} failing seeds, smallest ${r.smallestFailingSeed}: ${safety.join(', ')}`) +
    `; liveness: ${live.length === 0 ? 'held' : live.join(', ')}` +
    (r.truncatedSeeds.length > 0 ? `; ${r.truncatedSeeds.length} seeds hit the step limit` : '') +
    '\n'
  );
}

/**
 * Runs the chaos command on `argv` (without node and script) and resolves to its exit code
 * (0, 1, 2 or 3 as above). Never rejects: every problem is one line on `io.err`.
 */
export async function chaosCommand(argv: string[], io: ChaosIo = processIo): Promise<number> {
  const valued = new Set(['--seeds', '--first-seed']);
  const known = new Set([...valued, '--json', '--expect']);
  const files = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
  const unknown = argv.filter((a) => a.startsWith('--') && !known.has(a));
  if (files.length !== 1 || unknown.length > 0) {
    io.err(`${unknown.length > 0 ? `error: unknown option ${unknown[0]}\n` : ''}${USAGE}\n`);
    return 2;
  }
  const seeds = intFlag(argv, '--seeds', 1, 1_000_000) ?? 1000;
  const firstSeed = intFlag(argv, '--first-seed', 0, 0xffffffff) ?? 0;
  for (const v of [seeds, firstSeed]) {
    if (typeof v === 'string') {
      io.err(`error: ${v}\n${USAGE}\n`);
      return 2;
    }
  }
  let text: string;
  try {
    text = await readFile(files[0], 'utf8');
  } catch (err) {
    io.err(`error: ${files[0]}: cannot read the file — ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return 1;
  }
  const parsed = parseAnyScenarioText(text);
  if (!parsed.ok) {
    io.err(`error: ${files[0]}: ${parsed.errors.join('; ')}\n`);
    return 1;
  }
  const scenario = parsed.scenario;
  const runs: { label: string; scenario: Scenario }[] = [{ label: '', scenario }];
  if (argv.includes('--expect')) {
    for (const e of scenario.expect ?? []) runs.push({ label: ` [${e.label}]`, scenario: { ...scenario, config: mergeConfig(scenario.config, e.overrides) } });
  }
  let open: OpenDatabase | undefined;
  try {
    if (labNeedsDatabase(parsed.lab!)) open = await (io.open ?? nodeOpener)();
  } catch (err) {
    io.err(`error: cannot load SQLite (sql.js) for a ledger scenario — ${(err as Error).message}\n`);
    return 1;
  }
  const results: (SwarmResult & { label: string })[] = [];
  for (const run of runs) {
    const r = swarm(run.scenario, { seeds: seeds as number, firstSeed: firstSeed as number, open });
    results.push({ ...r, label: run.label.trim().replace(/^\[|\]$/g, '') });
    if (!argv.includes('--json')) {
      for (const f of r.failingSeeds) io.out(`${JSON.stringify({ seed: f.seed, violated: f.violated, faults: f.faults.map(describeFault) })}\n`);
      io.out(summaryLine(run.label, r));
    }
  }
  if (argv.includes('--json')) io.out(`${JSON.stringify({ runs: results }, null, 2)}\n`);
  return results.some((r) => r.failingSeeds.length > 0) ? 3 : 0;
}
