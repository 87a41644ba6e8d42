/**
 * One invariant of a resilience mechanism: a name, a description and a check over the mechanism's
 * state (mutable core or immutable view: it only reads). Null when it holds, else the message.
 * `model.ts` turns each list into the core's entity invariants (`reads` the mechanism's one entity)
 * and into the historic `Invariant` shape.
 */
export interface MechanismCheck<S> {
  name: string;
  description: string;
  check(state: S): string | null;
}
