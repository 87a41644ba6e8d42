/**
 * Per-step values that are absent on most steps and, where present, often repeat over a run of
 * consecutive steps (a state that stays broken reports the same violations at every step), kept
 * as runs `[from, to]` of one shared value (issue 10: the seekable trace's per-step metadata;
 * a Map with one entry per step cost more than the steps). Steps are added in increasing order.
 * `get` is a binary search over the runs, O(log runs).
 */
export class StepRuns<T> {
  private readonly from: number[] = [];
  private readonly to: number[] = [];
  private readonly values: T[] = [];

  /** Runs of `base` before step `end` (a run crossing `end` is cut at it), for a fork. */
  static prefix<T>(base: StepRuns<T>, end: number): StepRuns<T> {
    const out = new StepRuns<T>();
    for (let r = 0; r < base.from.length && base.from[r] < end; r++) {
      out.from.push(base.from[r]);
      out.to.push(Math.min(base.to[r], end - 1));
      out.values.push(base.values[r]);
    }
    return out;
  }

  /** Records `value` at `step` (greater than every step added so far); the same value (===) at the next step extends the run. */
  add(step: number, value: T): void {
    const last = this.to.length - 1;
    if (last >= 0 && this.to[last] === step - 1 && this.values[last] === value) this.to[last] = step;
    else {
      this.from.push(step);
      this.to.push(step);
      this.values.push(value);
    }
  }

  /** The value at `step`, or undefined when none was added. */
  get(step: number): T | undefined {
    let lo = 0;
    let hi = this.from.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.from[mid] > step) hi = mid - 1;
      else if (this.to[mid] < step) lo = mid + 1;
      else return this.values[mid];
    }
    return undefined;
  }
}

/** A typed array of one of the element kinds the seekable trace's per-step columns use. */
export type StepColumn = Float64Array | Uint32Array;

/**
 * `column` with room for at least `need` elements: itself when it has it, else a copy in a new
 * array of twice the size (at least 1,024), so appending n values copies O(n) in all. Typed columns
 * instead of arrays of numbers or objects (issue 10): no per-step allocation, nothing for the
 * garbage collector to scan.
 */
export function withRoom<A extends StepColumn>(column: A, need: number): A {
  if (need <= column.length) return column;
  const out = new (column.constructor as new (length: number) => A)(Math.max(need, column.length * 2, 1024));
  out.set(column);
  return out;
}

/**
 * Small integer ids for the spec rules steps apply (0: no rule), so a trace keeps one 32-bit id
 * per step instead of a string reference. Ids only grow; a fork copies its base's table.
 */
export class RuleIds {
  private readonly names: (string | undefined)[] = [undefined];
  private readonly ids = new Map<string, number>();

  /** A copy (a fork's table: the base's ids keep their meaning). */
  copy(): RuleIds {
    const out = new RuleIds();
    for (let i = 1; i < this.names.length; i++) out.idOf(this.names[i]);
    return out;
  }

  /** The id of `rule` (made on first sight; undefined → 0). */
  idOf(rule: string | undefined): number {
    if (rule === undefined) return 0;
    let id = this.ids.get(rule);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(rule);
      this.ids.set(rule, id);
    }
    return id;
  }

  /** The rule of `id` (undefined for 0 or an unknown id). */
  nameOf(id: number): string | undefined {
    return this.names[id];
  }
}
