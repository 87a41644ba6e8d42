/**
 * Input checks shared by the seed-document models (src/sim/seeds). Every failure throws a
 * RangeError whose message names the field, says what is wrong and what to do, in the project's
 * form `field.path: what is wrong — what to do`.
 */

/** Options of `checkNumber`. */
export interface NumberRule {
  /** Smallest allowed value (inclusive). */
  min?: number;
  /** Largest allowed value (inclusive). */
  max?: number;
  /** Require an integer. */
  integer?: boolean;
}

/**
 * Returns `value` when it is a finite number inside the rule; otherwise throws a RangeError
 * naming `field`. Pure.
 */
export function checkNumber(field: string, value: unknown, rule: NumberRule = {}): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new RangeError(`${field}: ${JSON.stringify(value) ?? String(value)} is not a finite number — give a number`);
  }
  if (rule.integer && !Number.isInteger(value)) throw new RangeError(`${field}: ${value} is not an integer — give a whole number`);
  if (rule.min !== undefined && value < rule.min) throw new RangeError(`${field}: ${value} is below ${rule.min} — give a value ≥ ${rule.min}`);
  if (rule.max !== undefined && value > rule.max) throw new RangeError(`${field}: ${value} is above ${rule.max} — give a value ≤ ${rule.max}`);
  return value;
}

/** Returns `value` when it is a boolean; otherwise throws a RangeError naming `field`. */
export function checkBoolean(field: string, value: unknown): boolean {
  if (typeof value !== 'boolean') throw new RangeError(`${field}: ${JSON.stringify(value) ?? String(value)} is not a boolean — give true or false`);
  return value;
}
