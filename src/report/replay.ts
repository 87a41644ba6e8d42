import { labNeedsDatabase, type LabId } from '../sim/labIds';
import { withOverrides } from '../sim/expectation';
import { LAB_DEFINITIONS, labContract } from '../sim/labs';
import { PRACTICE_CHECKS, type InventoryVariant } from '../sim/ledger/practice';
import type { OpenDatabase, SqlDatabase } from '../sim/ledger/sql';
import type { Expectation, Json, Scenario } from '../sim/types';
import { encodeLink } from '../store/labLink';
import type { Builtins, PracticeResult, ReplayedRun, ReviewEvidence } from './types';

/**
 * Replaying the evidence through the labs' own replay functions (read-only use of src/sim), and the
 * share links that reproduce each run. Pure apart from the ledger's SQLite (sql.js, passed in).
 */

/** A database opener for the ledger lab and its practice checks (sql.js `memoryOpener`). */
export type ReviewOpener = OpenDatabase & ((bytes?: Uint8Array) => SqlDatabase);

/**
 * The share link that reproduces `scenario` in `lab` (the one codec, src/store/labLink.ts, with the
 * lab's own link options): `#/<lab>/<id>` for an unmodified built-in; a built-in with a changed
 * config carries the changes as query parameters when the lab's links do (races); anything else
 * travels whole as `#/<lab>?scenario=…`.
 */
export function shareHref(lab: LabId, scenario: Scenario, builtins: Builtins): string {
  return encodeLink(lab, scenario, builtins[lab], labContract(lab).link);
}

/** The built-in `id` of `lab` with config overrides applied (`withOverrides`). Throws naming the id when there is no such built-in. */
export function builtinWith(builtins: Builtins, lab: LabId, id: string, overrides?: Record<string, Json>): Scenario {
  const s = builtins[lab].find((b) => b.id === id);
  if (!s) throw new Error(`builtins.${lab}: no built-in scenario "${id}" — pass the lab's scenarios from public/scenarios/${lab}`);
  return overrides ? withOverrides(s, overrides) : s;
}

/**
 * Replays one scenario of `lab` through its definition (the full trace). A lab whose replays run
 * SQL (the ledger) needs `open` (sql.js); without it this throws
 * `runs[].lab: ledger runs need SQLite (sql.js) — pass options.open`.
 */
export function replayRun(lab: LabId, scenario: Scenario, builtins: Builtins, open?: ReviewOpener): ReplayedRun {
  if (labNeedsDatabase(lab) && !open) throw new Error(`runs[].lab: ${lab} runs need SQLite (sql.js) — pass options.open`);
  const trace: ReplayedRun['trace'] = LAB_DEFINITIONS[lab]({ open }).replay(scenario);
  return {
    lab,
    scenario,
    href: shareHref(lab, scenario, builtins),
    trace,
    violated: trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name),
  };
}

/**
 * The mismatches between a run and an expectation's assertions (requests, summary, `at`, violated
 * invariants), checked with the run's lab's own checker on the run's own trace (the expectation's
 * overrides are NOT applied: the run's config is what is judged). Empty = met.
 */
export function runMismatches(run: ReplayedRun, expectation: Expectation): { field: string; expected: Json; actual: Json }[] {
  const e: Expectation = { ...expectation, overrides: undefined };
  return labContract(run.lab).checkExpectation(run.trace, e);
}

/** Runs one ledger practice check (`PRACTICE_CHECKS`). Throws naming the field for an unknown check id or a missing opener. */
export function runPractice(check: string, variant: string | undefined, open?: ReviewOpener): PracticeResult {
  const def = PRACTICE_CHECKS.find((c) => c.id === check);
  if (!def) throw new Error(`practice[].check: no practice check "${check}" — one of ${PRACTICE_CHECKS.map((c) => c.id).join(', ')}`);
  if (!open) throw new Error('practice[]: practice checks need SQLite (sql.js) — pass options.open');
  const v = (variant ?? 'correct') as InventoryVariant;
  const r = def.run(open, v);
  return { check, variant: v, ok: r.ok, detail: r.detail, href: '#/ledger' };
}

/** Every run and practice check of `evidence`, replayed. Errors (a ledger run without sql.js, an unknown check) throw. */
export function replayEvidence(evidence: ReviewEvidence, builtins: Builtins, open?: ReviewOpener): { runs: ReplayedRun[]; practice: PracticeResult[] } {
  return {
    runs: (evidence.runs ?? []).map((r) => replayRun(r.lab, r.scenario, builtins, open)),
    practice: (evidence.practice ?? []).map((p) => runPractice(p.check, p.variant, open)),
  };
}
