import { memo, useMemo, useState } from 'react';
import type { BackoffStrategy } from '../../sim/retry/backoff';
import { BACKOFF_STRATEGIES, HERD_LIMITS, occExperiment, type HerdSettings } from '../../store/flowStore';
import { ErrorBanner } from '../common/ErrorBanner';
import { STRATEGY_TEXT } from './strategyText';
import { formatCount } from '../../charts/format';

const fmt = formatCount;

type HerdNumberKey = Exclude<keyof HerdSettings, 'strategies'>;

/**
 * Why the herd plot refuses `value` for the number box `key` (null when it takes it), in the
 * labs' wording `herd.key: what is wrong — what to do`: outside `HERD_LIMITS`, a cap below the
 * base delay or a base above the cap (the store would otherwise clamp or lift them silently:
 * outage 999999999 became 60000, cap 1 became the base), a seed that is not a whole number.
 */
export function herdFieldError(key: HerdNumberKey, value: number, settings: HerdSettings): string | null {
  const [min, max] = HERD_LIMITS[key];
  const range = `enter a value from ${fmt(min)} to ${fmt(max)}`;
  if (!Number.isFinite(value)) return `herd.${key}: not a number — ${range}`;
  if (value < min) return `herd.${key}: ${fmt(value)} is below the minimum (${fmt(min)}) — ${range}`;
  if (value > max) return `herd.${key}: ${fmt(value)} is above the maximum (${fmt(max)}) — ${range}`;
  if (key === 'seed' && !Number.isInteger(value)) return `herd.seed: ${value} is not a whole number — enter a whole number from ${fmt(min)} to ${fmt(max)}`;
  if (key === 'capMs' && value < settings.baseMs) return `herd.capMs: ${fmt(value)} ms is below the base delay (${fmt(settings.baseMs)} ms) — enter at least ${fmt(settings.baseMs)}, or lower the base first`;
  if (key === 'baseMs' && value > settings.capMs) return `herd.baseMs: ${fmt(value)} ms is above the cap (${fmt(settings.capMs)} ms) — enter at most ${fmt(settings.capMs)}, or raise the cap first`;
  return null;
}

/**
 * The herd's settings. A number box takes a value only when {@link herdFieldError} finds nothing
 * wrong with it; otherwise the plot keeps its previous settings, the box is marked invalid, and
 * the shared error banner says what is wrong and what to do. Leaving the box shows the value the
 * plot still uses; the banner stays until that field takes a value or it is dismissed.
 */
export function HerdControls({ settings, onChange }: { settings: HerdSettings; onChange(patch: Partial<HerdSettings>): void }) {
  const clientsLog = Math.log10(settings.clients);
  const [drafts, setDrafts] = useState<Partial<Record<HerdNumberKey, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<HerdNumberKey, string>>>({});
  const setField = <T,>(set: (f: (m: Partial<Record<HerdNumberKey, T>>) => Partial<Record<HerdNumberKey, T>>) => void, key: HerdNumberKey, value: T | undefined) =>
    set((m) => {
      const next = { ...m };
      if (value === undefined) delete next[key];
      else next[key] = value;
      return next;
    });
  const edit = (key: HerdNumberKey, raw: string) => {
    if (raw.trim() === '') return setField(setDrafts, key, raw); // mid-typing: nothing to apply yet
    const value = Number(raw);
    const error = herdFieldError(key, value, settings);
    if (error) {
      setField(setDrafts, key, raw);
      setField(setErrors, key, `${error}; the plot keeps ${fmt(settings[key])}`);
      return;
    }
    setField(setDrafts, key, undefined);
    setField(setErrors, key, undefined);
    onChange({ [key]: value });
  };
  const num = (key: HerdNumberKey, label: string, step = 1) => (
    <label className="flow-field">
      <span>{label}</span>
      <input
        type="number"
        min={HERD_LIMITS[key][0]}
        max={HERD_LIMITS[key][1]}
        step={step}
        value={drafts[key] ?? settings[key]}
        aria-invalid={errors[key] !== undefined && drafts[key] !== undefined ? true : undefined}
        data-testid={`herd-${key}`}
        onChange={(e) => edit(key, e.target.value)}
        onBlur={() => setField(setDrafts, key, undefined)}
      />
    </label>
  );
  const lines = Object.values(errors);
  // The range snaps the value React writes back (log10 of the rounded count) to its 0.01 step, so
  // its `change` event after each `input` reports the count just set: no second update, undo step or herd run for it.
  const setClients = (clients: number) => {
    if (clients !== settings.clients) onChange({ clients });
  };
  return (
    <>
      <div className="herd-controls">
        <label className="flow-field herd-clients">
          <span>clients: <strong data-testid="herd-clients-value">{fmt(settings.clients)}</strong></span>
          <input type="range" min={1} max={5} step={0.01} value={clientsLog} aria-valuetext={`${settings.clients} clients`} data-testid="herd-clients" onChange={(e) => setClients(Math.round(10 ** Number(e.target.value)))} />
        </label>
        {num('outageMs', 'outage (ms)', 500)}
        {num('acceptPerSecond', 'accepts / s', 100)}
        {num('baseMs', 'base (ms)', 50)}
        {num('capMs', 'cap (ms)', 1000)}
        {num('bucketMs', 'bucket (ms)', 100)}
        {num('seed', 'seed')}
        <fieldset className="herd-strategies">
          <legend>strategies</legend>
          {BACKOFF_STRATEGIES.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={settings.strategies.includes(s)}
                data-testid={`herd-strategy-${s}`}
                onChange={(e) => onChange({ strategies: e.target.checked ? [...settings.strategies, s] : settings.strategies.filter((x) => x !== s) })}
              />{' '}
              {STRATEGY_TEXT[s]}
            </label>
          ))}
        </fieldset>
      </div>
      {lines.length > 0 && (
        <div className="herd-field-error">
          <ErrorBanner error={{ title: 'Herd setting not applied', errors: lines }} onDismiss={() => setErrors({})} testId="herd-error" />
        </div>
      )}
    </>
  );
}

const OCC_CLIENTS = [10, 50, 100, 150, 190];
const OCC_STRATEGIES: BackoffStrategy[] = ['exponential', 'full-jitter', 'equal-jitter', 'decorrelated-jitter'];

/**
 * The optimistic-concurrency experiment: calls and completion time per strategy (base 5 ms, cap
 * 2000 ms, network 10 ms). Fixed figures, so it renders once (memo: no props), not on every herd change.
 */
export const OccTable = memo(function OccTable() {
  const rows = useMemo(() => OCC_STRATEGIES.map((s) => ({ s, cells: OCC_CLIENTS.map((n) => occExperiment(s, n, { baseMs: 5, capMs: 2000, seed: 1 })) })), []);
  return (
    <div className="flow-table-wrap">
    <table className="flow-table" data-testid="occ-table">
      <caption>Optimistic concurrency on one row (base 5 ms, cap 2000 ms, 10 ms network): calls / completion time</caption>
      <thead>
        <tr>
          <th scope="col">strategy</th>
          {OCC_CLIENTS.map((n) => (
            <th scope="col" key={n}>{n} clients</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(({ s, cells }) => (
          <tr key={s}>
            <th scope="row">{STRATEGY_TEXT[s]}</th>
            {cells.map((c, i) => (
              <td key={i}>
                {fmt(c.calls)} / {(c.completionMs / 1000).toFixed(1)} s
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
});
