import { useId, useState, type ReactNode } from 'react';
import './seeds.css';

/** Shared pieces of the resilience lab's seed panels: number formatting, a validating number box, a badge. */

/** A number grouped like the lab's times (`formatMs`: "11 160"), at most `digits` decimals. */
export const n = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }).replace(/,/g, ' ');
/** A share (0–1) as a percentage with `digits` decimals: "38 %". */
export const pct = (x: number, digits = 1) => `${n(x * 100, digits)} %`;

/**
 * A number box that keeps the last good value: a bad entry shows `field: what is wrong — what to
 * do` under the box and changes nothing.
 */
export function NumberField({ label, value, min, max, step, testId, onChange, unit }: { label: string; value: number; min: number; max: number; step: number; testId: string; unit?: string; onChange(v: number): void }) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  // follow a new value from outside (another scenario, an edit), keeping what is being typed
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (Number(text) !== value) {
      setText(String(value));
      setError(null);
    }
  }
  const id = useId();
  const commit = (raw: string) => {
    setText(raw);
    const v = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(v) || v < min || v > max) {
      setError(`${label}: ${JSON.stringify(raw)} is not a number from ${min} to ${max} — type one in that range`);
      return;
    }
    setError(null);
    onChange(v);
  };
  return (
    <span className="seed-field">
      <label className="field-inline">
        <span>
          {label}
          {unit ? ` (${unit})` : ''}
        </span>
        <input type="number" value={text} min={min} max={max} step={step} data-testid={testId} aria-invalid={error !== null} aria-describedby={error ? `${id}-err` : undefined} onChange={(e) => commit(e.currentTarget.value)} />
      </label>
      {error && (
        <span id={`${id}-err`} role="alert" className="seed-field-error" data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}

/** A pass / fail / warning badge in the lab's colours. */
export function Badge({ status, children }: { status: 'pass' | 'fail' | 'n/a' | 'ok' | 'bad' | 'warn'; children: ReactNode }) {
  const cls = status === 'pass' || status === 'ok' ? 'badge-ok' : status === 'fail' || status === 'bad' ? 'badge-bad' : status === 'warn' ? 'badge-warn' : 'badge-muted';
  return <span className={`badge ${cls}`}>{children}</span>;
}

// ───────────── 4. the checklist as lints ─────────────
