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
