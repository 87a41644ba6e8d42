import { useEffect, useMemo, useRef, useState } from 'react';
import { BACKOFF_STRATEGIES, type BackoffStrategy } from '../../sim/flow/backoff';
import { occExperiment, type HerdResult } from '../../sim/flow/herd';
import { HERD_LIMITS, type HerdSettings } from '../../store/flowStore';

/**
 * The herd plot: arrivals per time bucket for each chosen strategy side by side (canvas: up to
 * hundreds of bars per panel and redraws while a slider moves), the server's capacity per bucket as
 * a line, a legend, and a summary table that carries the same numbers as text.
 */

export const STRATEGY_TEXT: Record<BackoffStrategy, string> = {
  fixed: 'fixed (no backoff)',
  exponential: 'exponential, no jitter',
  'full-jitter': 'full jitter',
  'equal-jitter': 'equal jitter',
  'decorrelated-jitter': 'decorrelated jitter',
  'sdk-default': 'TS SDK default (1.5ⁿ s)',
  'lesson-sha256': 'lesson SHA-256 jitter',
};

/**
 * Runs the herd for every chosen strategy in a Web Worker (see `herd.worker.ts`): at most one
 * computation in flight; while it runs, only the newest settings wait. Returns the latest results
 * and the settings they belong to (null until the first answer).
 */
export function useHerds(h: HerdSettings): { results: HerdResult[]; settings: HerdSettings; error: string | null } | null {
  const [state, setState] = useState<{ results: HerdResult[]; settings: HerdSettings; error: string | null } | null>(null);
  const worker = useRef<{ w: Worker; busy: boolean; pending: HerdSettings | null; sent: Map<number, HerdSettings>; next: number } | null>(null);
  useEffect(() => {
    const w = new Worker(new URL('./herd.worker.ts', import.meta.url), { type: 'module' });
    const ctl = { w, busy: false, pending: null as HerdSettings | null, sent: new Map<number, HerdSettings>(), next: 0 };
    worker.current = ctl;
    w.onmessage = (e: MessageEvent<{ id: number; results?: HerdResult[]; error?: string }>) => {
      const settings = ctl.sent.get(e.data.id);
      ctl.sent.delete(e.data.id);
      ctl.busy = false;
      if (settings) setState((prev) => (e.data.results ? { results: e.data.results, settings, error: null } : { results: prev?.results ?? [], settings: prev?.settings ?? settings, error: e.data.error ?? 'failed' }));
      if (ctl.pending) {
        const p = ctl.pending;
        ctl.pending = null;
        send(ctl, p);
      }
    };
    return () => {
      w.terminate();
      worker.current = null;
    };
  }, []);
  useEffect(() => {
    const ctl = worker.current;
    if (!ctl) return;
    if (ctl.busy) ctl.pending = h;
    else send(ctl, h);
  }, [h]);
  return state;
}

function send(ctl: { w: Worker; busy: boolean; sent: Map<number, HerdSettings>; next: number }, settings: HerdSettings) {
  const id = ctl.next++;
  ctl.sent.set(id, settings);
  ctl.busy = true;
  ctl.w.postMessage({ id, settings });
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

export function HerdCanvas({ results, settings, theme }: { results: HerdResult[]; settings: HerdSettings; theme: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const lastMs = Math.max(...results.map((r) => r.arrivals.length * r.bucketMs), settings.outageMs + 1000);
  const yMax = Math.max(1, ...results.map((r) => Math.max(...r.arrivals)));
  const capPerBucket = (settings.acceptPerSecond * settings.bucketMs) / 1000;
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const started = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const cssW = canvas.clientWidth || 900;
    const panelH = 120;
    const cssH = results.length * (panelH + 26) + 24;
    canvas.width = Math.round(cssW * dpr);
    canvas.height = Math.round(cssH * dpr);
    canvas.style.height = `${cssH}px`;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, cssW, cssH);
    const fg = cssVar(canvas, '--fg', '#1c2128');
    const muted = cssVar(canvas, '--fg-muted', '#56606b');
    const grid = cssVar(canvas, '--grid', '#e9ecef');
    const bar = cssVar(canvas, '--tone-client', '#2356c9');
    const ok = cssVar(canvas, '--tone-ok', '#146c2e');
    const bad = cssVar(canvas, '--tone-bad', '#c62a2a');
    const left = 60;
    const right = 12;
    const plotW = cssW - left - right;
    const xOf = (ms: number) => left + (ms / lastMs) * plotW;
    ctx.font = '11px system-ui, sans-serif';
    results.forEach((r, i) => {
      const top = 8 + i * (panelH + 26);
      const base = top + 18 + panelH - 18;
      const h = panelH - 18;
      const yOf = (v: number) => base - (Math.min(v, yMax) / yMax) * h;
      ctx.fillStyle = fg;
      ctx.font = '600 12px system-ui, sans-serif';
      ctx.fillText(`${STRATEGY_TEXT[r.strategy]} — peak ${r.peakArrivalsPerSecond.toLocaleString('en-US')}/s, ${r.allBackAtMs === null ? `${r.gaveUp.toLocaleString('en-US')} gave up` : `all back at ${(r.allBackAtMs / 1000).toFixed(1)} s`}`, left, top + 10);
      ctx.font = '11px system-ui, sans-serif';
      ctx.strokeStyle = grid;
      ctx.beginPath();
      ctx.moveTo(left, base + 0.5);
      ctx.lineTo(left + plotW, base + 0.5);
      ctx.stroke();
      // outage shading
      ctx.fillStyle = grid;
      ctx.fillRect(left, top + 18, xOf(settings.outageMs) - left, h);
      const bw = Math.max(1, (settings.bucketMs / lastMs) * plotW - 0.5);
      ctx.fillStyle = bar;
      for (let b = 0; b < r.arrivals.length; b++) {
        const v = r.arrivals[b];
        if (v === 0) continue;
        const y = yOf(v);
        ctx.fillRect(xOf(b * settings.bucketMs), y, bw, base - y);
      }
      ctx.fillStyle = ok;
      for (let b = 0; b < r.accepted.length; b++) {
        const v = r.accepted[b];
        if (v === 0) continue;
        const y = yOf(v);
        ctx.fillRect(xOf(b * settings.bucketMs), y, bw, Math.max(1, Math.min(2, base - y)));
      }
      // capacity per bucket
      ctx.strokeStyle = bad;
      ctx.setLineDash([5, 3]);
      ctx.beginPath();
      ctx.moveTo(xOf(settings.outageMs), yOf(capPerBucket) + 0.5);
      ctx.lineTo(left + plotW, yOf(capPerBucket) + 0.5);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = muted;
      ctx.textAlign = 'right';
      ctx.fillText(yMax.toLocaleString('en-US'), left - 6, top + 26);
      ctx.fillText('0', left - 6, base);
      ctx.textAlign = 'left';
    });
    // time axis
    ctx.fillStyle = muted;
    const stepS = Math.max(1, Math.ceil(lastMs / 1000 / 10));
    for (let s = 0; s * 1000 <= lastMs; s += stepS) ctx.fillText(`${s} s`, xOf(s * 1000) - 6, cssH - 6);
    // The draw's own cost, for `npm run bench` (read from the attribute; not shown).
    canvas.dataset.drawMs = (performance.now() - started).toFixed(2);
    canvas.dataset.clients = String(settings.clients);
  }, [results, settings, lastMs, yMax, capPerBucket, theme]);
  const label = `Herd plot: ${settings.clients.toLocaleString('en-US')} clients reconnecting after a ${settings.outageMs} ms outage, server accepting ${settings.acceptPerSecond} per second; arrivals per ${settings.bucketMs} ms bucket for ${results.map((r) => STRATEGY_TEXT[r.strategy]).join(', ')}. The table below has the numbers.`;
  return <canvas ref={ref} className="herd-canvas" role="img" aria-label={label} data-testid="herd-canvas" />;
}

export function HerdTable({ results, settings }: { results: HerdResult[]; settings: HerdSettings }) {
  return (
    <table className="flow-table" data-testid="herd-table">
      <caption>Herd summary: {settings.clients.toLocaleString('en-US')} clients, capacity {settings.acceptPerSecond.toLocaleString('en-US')} connections per second after a {settings.outageMs} ms outage</caption>
      <thead>
        <tr>
          <th scope="col">strategy</th>
          <th scope="col">peak arrivals / s</th>
          <th scope="col">peak ÷ capacity</th>
          <th scope="col">everyone back at</th>
          <th scope="col">total attempts</th>
          <th scope="col">gave up</th>
        </tr>
      </thead>
      <tbody>
        {results.map((r) => (
          <tr key={r.strategy} data-testid={`herd-row-${r.strategy}`}>
            <th scope="row">{STRATEGY_TEXT[r.strategy]}</th>
            <td data-testid="herd-peak">{r.peakArrivalsPerSecond.toLocaleString('en-US')}</td>
            <td>{(r.peakArrivalsPerSecond / r.acceptPerSecond).toFixed(1)}×</td>
            <td data-testid="herd-back">{r.allBackAtMs === null ? 'never (within 8 attempts)' : `${r.allBackAtMs.toLocaleString('en-US')} ms`}</td>
            <td data-testid="herd-attempts">{r.totalAttempts.toLocaleString('en-US')}</td>
            <td>{r.gaveUp.toLocaleString('en-US')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function HerdControls({ settings, onChange }: { settings: HerdSettings; onChange(patch: Partial<HerdSettings>): void }) {
  const clientsLog = Math.log10(settings.clients);
  const num = (key: Exclude<keyof HerdSettings, 'strategies'>, label: string, step = 1) => (
    <label className="flow-field">
      <span>{label}</span>
      <input type="number" min={HERD_LIMITS[key][0]} max={HERD_LIMITS[key][1]} step={step} value={settings[key]} data-testid={`herd-${key}`} onChange={(e) => e.target.value !== '' && onChange({ [key]: Number(e.target.value) })} />
    </label>
  );
  return (
    <div className="herd-controls">
      <label className="flow-field herd-clients">
        <span>clients: <strong data-testid="herd-clients-value">{settings.clients.toLocaleString('en-US')}</strong></span>
        <input type="range" min={1} max={5} step={0.01} value={clientsLog} aria-valuetext={`${settings.clients} clients`} data-testid="herd-clients" onChange={(e) => onChange({ clients: Math.round(10 ** Number(e.target.value)) })} />
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
  );
}

const OCC_CLIENTS = [10, 50, 100, 150, 190];
const OCC_STRATEGIES: BackoffStrategy[] = ['exponential', 'full-jitter', 'equal-jitter', 'decorrelated-jitter'];

/** The optimistic-concurrency experiment: calls and completion time per strategy (base 5 ms, cap 2000 ms, network 10 ms). */
export function OccTable() {
  const rows = useMemo(() => OCC_STRATEGIES.map((s) => ({ s, cells: OCC_CLIENTS.map((n) => occExperiment(s, n, { baseMs: 5, capMs: 2000, seed: 1 })) })), []);
  return (
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
                {c.calls.toLocaleString('en-US')} / {(c.completionMs / 1000).toFixed(1)} s
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
