import { NONE } from './core';
import { StepRuns } from './stepRuns';
import type { Ignored, Violation } from './types';

/**
 * The seekable trace's per-step metadata (issue 10): time, end of the step's wire effects, rule,
 * ignored events and broken invariants of every step, kept as typed columns grown by doubling and
 * sparse runs — no object per step, nothing per step for the garbage collector to scan, and no
 * allocation at all for a step that ignores nothing and breaks nothing.
 */

/** A typed array of one of the element kinds the per-step columns use. */
type Column = Float64Array | Uint32Array;

/**
 * `column` with room for at least `need` elements: itself when it has it, else a copy in a new
 * array of twice the size (at least 1,024), so appending n values copies O(n) in all.
 */
function withRoom<A extends Column>(column: A, need: number): A {
  if (need <= column.length) return column;
  const out = new (column.constructor as new (length: number) => A)(Math.max(need, column.length * 2, 1024));
  out.set(column);
  return out;
}

/** True when two steps' violation lists say the same (same invariants, same messages, in order). */
function sameViolations(a: readonly Violation[], b: readonly Violation[]): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) if (a[j].invariant !== b[j].invariant || a[j].message !== b[j].message) return false;
  return true;
}

/**
 * Per-step columns of one trace. Steps are recorded in order (`record`), then `seal` trims the
 * columns; `prefix` gives a fork the first n steps of its base. Reads outside the recorded steps
 * give undefined (as from an array).
 */
export class StepColumns {
  /** Time of each step (ms). */
  private ats: Float64Array;
  /** Index in the trace's effects list after each step's last effect. */
  private effectEnd: Uint32Array;
  /** Each step's rule as an id into `ruleNames` (0: no rule). */
  private ruleCol: Uint32Array;
  private readonly ruleNames: (string | undefined)[];
  private readonly ruleIds: Map<string, number>;
  private readonly ignoredAt: Map<number, Ignored[]>;
  private readonly violationsAt: StepRuns<Violation[]>;
  /** Recording state: the last rule seen and its id (most steps apply the rule of the step before), the last violation list kept. */
  private lastRule: string | undefined = undefined;
  private lastRuleId = 0;
  private lastViolations: Violation[] = NONE;

  constructor(base?: { from: StepColumns; steps: number }) {
    const n = base?.steps ?? 0;
    const from = base?.from;
    this.ats = from ? from.ats.slice(0, n) : new Float64Array(0);
    this.effectEnd = from ? from.effectEnd.slice(0, n) : new Uint32Array(0);
    this.ruleCol = from ? from.ruleCol.slice(0, n) : new Uint32Array(0);
    // Rule ids only grow: a copy of the base's table keeps the meaning of the copied ids.
    this.ruleNames = from ? from.ruleNames.slice() : [undefined];
    this.ruleIds = from ? new Map(from.ruleIds) : new Map();
    this.ignoredAt = from ? new Map([...from.ignoredAt].filter(([i]) => i < n)) : new Map();
    this.violationsAt = from ? StepRuns.prefix(from.violationsAt, n) : new StepRuns();
  }

  /** Records step `i` (one more than the last recorded): its time (ms), effects end, rule, ignored events and violations (NONE when none). */
  record(i: number, atMs: number, effectEnd: number, rule: string | undefined, ignored: Ignored[], violations: Violation[]): void {
    if (i >= this.ats.length) {
      this.ats = withRoom(this.ats, i + 1);
      this.effectEnd = withRoom(this.effectEnd, i + 1);
      this.ruleCol = withRoom(this.ruleCol, i + 1);
    }
    this.ats[i] = atMs;
    this.effectEnd[i] = effectEnd;
    if (rule !== this.lastRule) {
      this.lastRule = rule;
      this.lastRuleId = this.idOf(rule);
    }
    this.ruleCol[i] = this.lastRuleId;
    if (ignored !== NONE) this.ignoredAt.set(i, ignored);
    if (violations !== NONE) {
      // A state that stays broken repeats its violations step after step: keep one list for the run of equal ones.
      if (!sameViolations(violations, this.lastViolations)) this.lastViolations = violations;
      this.violationsAt.add(i, this.lastViolations);
    }
  }

  /** Ends recording after `steps` steps: the columns become views of their filled part. */
  seal(steps: number): void {
    this.ats = this.ats.subarray(0, steps);
    this.effectEnd = this.effectEnd.subarray(0, steps);
    this.ruleCol = this.ruleCol.subarray(0, steps);
  }

  private idOf(rule: string | undefined): number {
    if (rule === undefined) return 0;
    let id = this.ruleIds.get(rule);
    if (id === undefined) {
      id = this.ruleNames.length;
      this.ruleNames.push(rule);
      this.ruleIds.set(rule, id);
    }
    return id;
  }

  /** Time of step `i` (ms). */
  atOf(i: number): number {
    return this.ats[i];
  }

  /** End of step `i`'s effects in the trace's effects list. */
  effectEndOf(i: number): number {
    return this.effectEnd[i];
  }

  /** The spec rule step `i` applied, if any. */
  ruleOf(i: number): string | undefined {
    return this.ruleNames[this.ruleCol[i]];
  }

  /** Events of step `i` ignored by a side (NONE when none). */
  ignoredOf(i: number): Ignored[] {
    return this.ignoredAt.get(i) ?? NONE;
  }

  /** Invariants step `i` broke (NONE when none). */
  violationsOf(i: number): Violation[] {
    return this.violationsAt.get(i) ?? NONE;
  }
}
