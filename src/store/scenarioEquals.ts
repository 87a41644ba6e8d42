import type { Scenario } from '../sim/types';
import { stableStringify } from './stableJson';

const canonical = new WeakMap<object, string>();
function canonicalText(value: object): string {
  let text = canonical.get(value);
  if (text === undefined) {
    text = stableStringify(value);
    canonical.set(value, text);
  }
  return text;
}

/**
 * Deep equality of two scenarios, fast for edits: events shared by reference are equal without
 * looking inside, so after a drag only the moved event is compared as text.
 */
export function scenarioEquals(a: Scenario, b: Scenario): boolean {
  if (a === b) return true;
  const { events: ea, config: ca, ...ra } = a;
  const { events: eb, config: cb, ...rb } = b;
  if (ea.length !== eb.length) return false;
  if (ca !== cb && canonicalText(ca as object) !== canonicalText(cb as object)) return false;
  if (stableStringify(ra) !== stableStringify(rb)) return false;
  for (let i = 0; i < ea.length; i++) if (ea[i] !== eb[i] && canonicalText(ea[i]) !== canonicalText(eb[i])) return false;
  return true;
}
