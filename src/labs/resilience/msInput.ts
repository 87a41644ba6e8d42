/**
 * Checks a typed millisecond setting (the Timeouts panel's static timeout and cap): a whole number
 * from `min` to `max` ms. Returns the value, or the error line naming the field and its range, e.g.
 * `Static timeout (ms): 0 is out of range; expected a whole number from 1 to 600 000 ms`.
 */
export function parseMsSetting(raw: string, field: string, min: number, max: number): { ok: true; value: number } | { ok: false; error: string } {
  const range = `expected a whole number from ${min.toLocaleString('en-US').replace(/,/g, ' ')} to ${max.toLocaleString('en-US').replace(/,/g, ' ')} ms`;
  const text = raw.trim();
  if (text === '') return { ok: false, error: `${field}: is empty; ${range}` };
  const n = Number(text);
  if (!Number.isFinite(n)) return { ok: false, error: `${field}: ${JSON.stringify(raw)} is not a number; ${range}` };
  if (!Number.isInteger(n)) return { ok: false, error: `${field}: ${text} is not a whole number; ${range}` };
  if (n < min || n > max) return { ok: false, error: `${field}: ${text} is out of range; ${range}` };
  return { ok: true, value: n };
}
