/**
 * The labs of the site, by id, with no schemas or models attached: small enough for any bundle.
 * `src/sim/labs.ts` registers each id's schemas and models (the CLI needs all of them; a lab page
 * needs only its own).
 */
export const LAB_IDS = ['races', 'ledger', 'flow', 'resilience'] as const;

/** A lab id. */
export type LabId = (typeof LAB_IDS)[number];

/**
 * The labs whose replays run real SQL (sql.js): a host loads sql.js and passes a database opener
 * (`LabEnv.open`) before it replays one of their scenarios. Kept here, beside the ids, because the
 * hosts that must know it (the CLI's `replay`, the workers' `labOpener`) load no lab definition first.
 */
const DATABASE_LABS: readonly LabId[] = ['ledger'];

/** True when replays of `lab` run real SQL and so need a database opener (see `DATABASE_LABS`). */
export function labNeedsDatabase(lab: string): boolean {
  return (DATABASE_LABS as readonly string[]).includes(lab);
}

/** True when `value` is the id of one of the labs. */
export function isLabId(value: unknown): value is LabId {
  return typeof value === 'string' && (LAB_IDS as readonly string[]).includes(value);
}

/** The lab's display name: `ledger` → `Ledger`. */
export function labName(lab: LabId): string {
  return lab.charAt(0).toUpperCase() + lab.slice(1);
}

/**
 * The one-line problem for a scenario whose `lab` field is not `expected`, or null when it is.
 * A scenario of another lab is named with where to open it, e.g.
 * `lab: this is a "races" scenario; open it in the Races lab (#/races)`; a missing or unknown one as
 * `lab: must be "races" for this lab, got nothing — set "lab" to "races"` (the CLI, which reads any
 * lab, lists the labs instead: src/sim/scenario.ts `parseAnyScenarioTextWith`).
 */
export function labFieldProblem(labField: unknown, expected: string): string | null {
  if (labField === expected) return null;
  if (isLabId(labField)) return `lab: this is a "${labField}" scenario; open it in the ${labName(labField)} lab (#/${labField})`;
  return `lab: must be "${expected}" for this lab, got ${JSON.stringify(labField) ?? 'nothing'} — set "lab" to "${expected}"`;
}
