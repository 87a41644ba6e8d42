/**
 * Interned texts of the breaker mechanism: a call's `reason` and a retry stop are built from a few
 * small values (attempt number, breaker mode, token count) and repeat across 100,000 calls, so
 * the same (a, b) returns the same string, built once (issue 10: fewer strings kept per call).
 * Equal strings either way, so nothing a trace shows changes. Each cache holds at most `limit`
 * texts (then builds without keeping), so texts with unbounded keys cannot grow it without end.
 */
export class TextCache<A, B> {
  private readonly byA = new Map<A, Map<B, string>>();
  private size = 0;

  /** `build(a, b)` is a pure function of its arguments (pass a function that captures nothing). */
  constructor(
    private readonly build: (a: A, b: B) => string,
    private readonly limit = 4096,
  ) {}

  /** The text for (a, b): the kept string, or a new one (kept while under the limit). */
  get(a: A, b: B): string {
    let byB = this.byA.get(a);
    const hit = byB?.get(b);
    if (hit !== undefined) return hit;
    const text = this.build(a, b);
    if (this.size < this.limit) {
      if (byB === undefined) this.byA.set(a, (byB = new Map()));
      byB.set(b, text);
      this.size++;
    }
    return text;
  }
}
