import { scaleLinear } from 'd3-scale';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { HerdResult } from '../../sim/flow/herd';
import { LESSON_JITTER, type HerdSettings } from '../../store/flowStore';
import { herdVerdict, lessonRankNote, STRATEGY_TEXT } from './strategyText';
import { ColumnHeads } from '../common/ColumnHeads';
import { formatCount } from '../../charts/format';
import './herdPlot.css';

/**
 * The herd plot: arrivals per time bucket for each chosen strategy side by side (canvas: up to
 * hundreds of bars per panel and redraws while a slider moves), the server's capacity per bucket as
 * a line, a legend, and a summary table that carries the same numbers as text.
 */


/** The herd plot's message when its worker could not run; `detail` says what happened. */
export function herdFailedMessage(detail: string): string {
  return `herd plot: ${detail} — check the connection, then press Retry`;
}

/**
 * What the herd's worker is doing, for the plot's busy sign and its Retry button: `pending` while
 * a run for newer settings than the ones drawn is in flight or queued, `failed` (the message) when
 * the worker could not start or crashed, `retry` starts a fresh worker with the newest settings,
 * `starts` counts the workers started. One herd plot per page: the newest mounted `useHerds`
 * publishes it, `useHerdStatus` reads it.
 */
export interface HerdStatus {
  pending: boolean;
  failed: string | null;
  starts: number;
  retry(): void;
}

const IDLE_STATUS: HerdStatus = { pending: false, failed: null, starts: 0, retry() {} };
let herdStatus: HerdStatus = IDLE_STATUS;
const herdListeners = new Set<() => void>();
function publishHerdStatus(next: HerdStatus) {
  herdStatus = next;
  for (const l of [...herdListeners]) l();
}
const subscribeHerdStatus = (l: () => void) => {
  herdListeners.add(l);
  return () => void herdListeners.delete(l);
};

/** The herd worker's status (see {@link HerdStatus}); re-renders when it changes. */
export function useHerdStatus(): HerdStatus {
  return useSyncExternalStore(subscribeHerdStatus, () => herdStatus);
}

type HerdState = { results: HerdResult[]; settings: HerdSettings; error: string | null };
interface HerdControl {
  w: Worker | null;
  busy: boolean;
  pending: HerdSettings | null;
  latest: HerdSettings | null;
  sent: Map<number, HerdSettings>;
  next: number;
  starts: number;
  failed: string | null;
}

/**
 * Runs the herd for every chosen strategy in a Web Worker (see `herd.worker.ts`): at most one
 * computation in flight; while it runs, only the newest settings wait. Returns the latest results
 * and the settings they belong to (null until the first answer, or until the worker fails to
 * start: then `error` says so, and {@link useHerdStatus}'s `retry` starts it again).
 */
export function useHerds(h: HerdSettings): HerdState | null {
  const [state, setState] = useState<HerdState | null>(null);
  const worker = useRef<HerdControl | null>(null);
  useEffect(() => {
    const ctl: HerdControl = { w: null, busy: false, pending: null, latest: null, sent: new Map(), next: 0, starts: 0, failed: null };
    worker.current = ctl;
    const publish = () => publishHerdStatus({ pending: ctl.failed === null && (ctl.busy || ctl.pending !== null), failed: ctl.failed, starts: ctl.starts, retry });
    const fail = (message: string) => {
      ctl.w?.terminate();
      ctl.w = null;
      ctl.busy = false;
      ctl.pending = null;
      ctl.sent.clear();
      ctl.failed = message;
      setState((prev) => ({ results: prev?.results ?? [], settings: prev?.settings ?? ctl.latest!, error: message }));
      publish();
    };
    const boot = () => {
      const w = new Worker(new URL('./herd.worker.ts', import.meta.url), { type: 'module' });
      ctl.w = w;
      ctl.starts++;
      let heard = false;
      w.onmessage = (e: MessageEvent<{ id: number; results?: HerdResult[]; error?: string }>) => {
        if (ctl.w !== w) return;
        heard = true;
        const settings = ctl.sent.get(e.data.id);
        ctl.sent.delete(e.data.id);
        ctl.busy = false;
        if (settings) setState((prev) => (e.data.results ? { results: e.data.results, settings, error: null } : { results: prev?.results ?? [], settings: prev?.settings ?? settings, error: e.data.error ?? 'failed' }));
        if (ctl.pending) {
          const p = ctl.pending;
          ctl.pending = null;
          send(ctl, p);
        }
        publish();
      };
      // A worker whose script cannot load (offline before the site was cached, a file gone after a
      // redeploy) fires `error` with no message and never answers: say so instead of "Computing…" forever.
      w.onerror = (e) => {
        e.preventDefault();
        if (ctl.w !== w) return;
        fail(herdFailedMessage(heard ? `its worker failed (${e.message || 'unknown error'})` : `its worker did not start (${e.message || 'its script did not load'})`));
      };
    };
    const retry = () => {
      if (worker.current !== ctl) return;
      ctl.w?.terminate();
      ctl.failed = null;
      ctl.busy = false;
      ctl.sent.clear();
      boot();
      if (ctl.latest) send(ctl, ctl.latest);
      publish();
    };
    boot();
    publish();
    return () => {
      ctl.w?.terminate();
      ctl.w = null;
      worker.current = null;
      if (herdStatus.retry === retry) publishHerdStatus(IDLE_STATUS);
    };
  }, []);
  useEffect(() => {
    const ctl = worker.current;
    if (!ctl) return;
    ctl.latest = h;
    if (ctl.failed !== null) return;
    if (ctl.busy) ctl.pending = h;
    else send(ctl, h);
    publishHerdStatus({ ...herdStatus, pending: true });
  }, [h]);
  return state;
}

function send(ctl: HerdControl, settings: HerdSettings) {
  const id = ctl.next++;
  ctl.sent.set(id, settings);
  ctl.busy = true;
  ctl.w?.postMessage({ id, settings });
}

function cssVar(el: Element, name: string, fallback: string): string {
  return getComputedStyle(el).getPropertyValue(name).trim() || fallback;
}

const fmt = formatCount;

/**
 * The herd as small multiples: one panel per strategy, side by side (wrapping on narrow screens),
 * all sharing one x scale (time since the drop) and one y scale (attempts per bucket), so heights
 * compare across panels. Each panel: the outage shaded, attempts as bars, accepted connections as
 * green ticks, the server's capacity per bucket as a dashed red line; under it the peak, the time
 * until everyone is back and the total attempts. Canvas, because a panel can hold hundreds of
 * bars and redraws while a slider moves. The container carries `data-draw-ms` (the redraw's cost,
 * read by `npm run bench`) and `data-clients`.
 */
export function HerdCanvas({ results, settings, theme }: { results: HerdResult[]; settings: HerdSettings; theme: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const status = useHerdStatus();
  const lastMs = Math.max(...results.map((r) => r.arrivals.length * r.bucketMs), settings.outageMs + 1000);
  const capPerBucket = (settings.acceptPerSecond * settings.bucketMs) / 1000;
  // One y scale for every panel, rounded up to a readable top (d3's nice()).
  const yMax = scaleLinear()
    .domain([0, Math.max(1, capPerBucket, ...results.map((r) => Math.max(...r.arrivals)))])
    .nice()
    .domain()[1];
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const started = performance.now();
    const canvases = root.querySelectorAll('canvas');
    const fg = cssVar(root, '--fg', '#1c2128');
    const muted = cssVar(root, '--fg-muted', '#56606b');
    const grid = cssVar(root, '--grid', '#e9ecef');
    const bar = cssVar(root, '--tone-client', '#2356c9');
    const ok = cssVar(root, '--tone-ok', '#146c2e');
    const bad = cssVar(root, '--tone-bad', '#c62a2a');
    const dpr = window.devicePixelRatio || 1;
    canvases.forEach((canvas, i) => {
      const r = results[i];
      if (!r) return;
      const cssW = canvas.clientWidth || 300;
      const cssH = 150;
      canvas.width = Math.round(cssW * dpr);
      canvas.height = Math.round(cssH * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, cssW, cssH);
      ctx.font = '11px system-ui, sans-serif';
      // The left margin fits the widest y label ("130,000" would otherwise lose its first digit).
      const left = Math.max(44, Math.ceil(ctx.measureText(fmt(yMax)).width) + 10);
      const right = 8;
      const top = 20;
      const base = cssH - 20;
      const plotW = Math.max(10, cssW - left - right);
      const h = base - top;
      const xOf = (ms: number) => left + (ms / lastMs) * plotW;
      const yOf = (v: number) => base - (Math.min(v, yMax) / yMax) * h;
      ctx.fillStyle = grid;
      ctx.fillRect(left, top, xOf(settings.outageMs) - left, h);
      ctx.strokeStyle = muted;
      ctx.beginPath();
      ctx.moveTo(left, base + 0.5);
      ctx.lineTo(left + plotW, base + 0.5);
      ctx.moveTo(left - 0.5, top);
      ctx.lineTo(left - 0.5, base);
      ctx.stroke();
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
        ctx.fillRect(xOf(b * settings.bucketMs), yOf(v) - 1, bw, 2);
      }
      ctx.strokeStyle = bad;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 3]);
      ctx.beginPath();
      ctx.moveTo(xOf(settings.outageMs), yOf(capPerBucket));
      ctx.lineTo(left + plotW, yOf(capPerBucket));
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.lineWidth = 1;
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillStyle = muted;
      ctx.textAlign = 'right';
      ctx.fillText(fmt(yMax), left - 4, top + 9);
      ctx.fillText('0', left - 4, base);
      // The y unit, above the axis: bars count attempts in one bucket, not per second.
      ctx.textAlign = 'left';
      ctx.fillText(`attempts per ${fmt(settings.bucketMs)} ms bucket`, 2, 11);
      ctx.textAlign = 'center';
      const stepS = Math.max(1, Math.ceil(lastMs / 1000 / Math.max(2, Math.floor(plotW / 60))));
      for (let sec = 0; sec * 1000 <= lastMs; sec += stepS) ctx.fillText(`${sec} s`, Math.min(xOf(sec * 1000), left + plotW - 10), cssH - 5);
      ctx.textAlign = 'left';
      ctx.fillStyle = fg;
    });
    root.dataset.drawMs = (performance.now() - started).toFixed(2);
    root.dataset.clients = String(settings.clients);
  }, [results, settings, lastMs, yMax, capPerBucket, theme, width]);
  return (
    <div ref={ref} className="herd-multiples" data-testid="herd-canvas" aria-busy={status.pending} data-worker-starts={status.starts}>
      {status.pending && (
        // The drawing below is the previous run's until the worker answers: say so, over it.
        <div className="herd-busy" role="status" data-testid="herd-busy">
          <span>Computing…</span>
        </div>
      )}
      {status.failed && (
        <p className="herd-retry">
          <button type="button" onClick={() => status.retry()} data-testid="herd-retry">
            Retry
          </button>{' '}
          <span className="small muted">starts the herd's worker again</span>
        </p>
      )}
      <p className="flow-legend herd-legend" aria-hidden="true">
        <span><span className="sw sw-attempts" /> attempts per {fmt(settings.bucketMs)} ms</span>
        <span><span className="sw sw-accepted" /> accepted</span>
        <span><span className="sw sw-cap" /> capacity ({fmt(capPerBucket)} per bucket)</span>
        <span><span className="sw-box" /> outage (0–{fmt(settings.outageMs)} ms)</span>
        <span>same scales in every panel: 0–{fmt(yMax)} attempts per {fmt(settings.bucketMs)} ms bucket, 0–{(lastMs / 1000).toFixed(0)} s</span>
      </p>
      <div className="herd-grid">
        {results.map((r) => (
          <figure key={r.strategy} className="herd-panel" data-testid={`herd-panel-${r.strategy}`}>
            <figcaption className="herd-panel-title">{STRATEGY_TEXT[r.strategy]}</figcaption>
            <canvas
              className="herd-canvas"
              role="img"
              aria-label={`${STRATEGY_TEXT[r.strategy]}: ${fmt(settings.clients)} clients after a ${fmt(settings.outageMs)} ms outage; peak ${fmt(r.peakArrivalsPerSecond)} attempts per second against a capacity of ${fmt(r.acceptPerSecond)}; ${r.allBackAtMs === null ? `${fmt(r.gaveUp)} gave up` : `everyone back at ${fmt(r.allBackAtMs)} ms`}; ${fmt(r.totalAttempts)} attempts.`}
            />
            <dl className="herd-stats">
              <div>
                <dt>peak</dt>
                <dd className={r.peakArrivalsPerSecond > r.acceptPerSecond ? 'bad-text' : undefined} data-testid="panel-peak">
                  {fmt(r.peakArrivalsPerSecond)}/s ({(r.peakArrivalsPerSecond / r.acceptPerSecond).toFixed(1)}× capacity)
                </dd>
                <dd className="herd-peak-note">{peakNote(r)}</dd>
              </div>
              <div>
                <dt>everyone back</dt>
                <dd>{r.allBackAtMs === null ? `never: ${fmt(r.gaveUp)} gave up after ${r.attemptLimit} attempt${r.attemptLimit === 1 ? '' : 's'}` : `${(r.allBackAtMs / 1000).toFixed(1)} s`}</dd>
              </div>
              <div>
                <dt>attempts</dt>
                <dd>{fmt(r.totalAttempts)}</dd>
              </div>
            </dl>
          </figure>
        ))}
      </div>
    </div>
  );
}

/**
 * The peak explained in its units: the tallest bar (attempts in one bucket) and the busiest
 * second (attempts counted in that one-second window of the simulation, not a bucket scaled up),
 * and — when the second holds more attempts than there are clients — why: attempts, not clients,
 * are counted, and a client whose delays are shorter than a second retries several times in it.
 */
export function peakNote(r: HerdResult): string {
  let bucket = 0;
  let at = 0;
  for (let b = 0; b < r.arrivals.length; b++) {
    if (r.arrivals[b] > bucket) {
      bucket = r.arrivals[b];
      at = b;
    }
  }
  const sec = r.peakSecondAtMs / 1000;
  const text = `tallest bar ${fmt(bucket)} per ${fmt(r.bucketMs)} ms (at ${((at * r.bucketMs) / 1000).toFixed(1)} s); busiest second ${sec}–${sec + 1} s: ${fmt(r.peakArrivalsPerSecond)} attempts`;
  if (r.peakArrivalsPerSecond <= r.clients) return `${text}.`;
  return `${text}, ${(r.peakArrivalsPerSecond / r.clients).toFixed(1)} per client: its delays are under a second, so each client retries several times in it.`;
}

export function HerdTable({ results, settings }: { results: HerdResult[]; settings: HerdSettings }) {
  const lessonNote = lessonRankNote(results, settings, LESSON_JITTER);
  return (
    <div className="flow-table-wrap">
    <p className="small" data-testid="herd-verdict">
      {herdVerdict(results)}
    </p>
    {lessonNote && (
      <p className="small" data-testid="herd-lesson-rank">
        {lessonNote}
      </p>
    )}
    <table className="flow-table" data-testid="herd-table">
      <caption>Herd summary: {fmt(settings.clients)} clients, capacity {fmt(settings.acceptPerSecond)} connections per second after a {settings.outageMs} ms outage</caption>
      <ColumnHeads columns={['strategy', 'peak arrivals / s', 'peak ÷ capacity', 'everyone back at', 'total attempts', 'gave up']} />
      <tbody>
        {results.map((r) => (
          <tr key={r.strategy} data-testid={`herd-row-${r.strategy}`}>
            <th scope="row">{STRATEGY_TEXT[r.strategy]}</th>
            <td data-testid="herd-peak">{fmt(r.peakArrivalsPerSecond)}</td>
            <td>{(r.peakArrivalsPerSecond / r.acceptPerSecond).toFixed(1)}×</td>
            <td data-testid="herd-back">{r.allBackAtMs === null ? `never (within ${r.attemptLimit} attempt${r.attemptLimit === 1 ? '' : 's'})` : `${fmt(r.allBackAtMs)} ms`}</td>
            <td data-testid="herd-attempts">{fmt(r.totalAttempts)}</td>
            <td data-testid="herd-gave-up">{fmt(r.gaveUp)}</td>
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}

export { herdFieldError, HerdControls, OccTable } from './HerdControls';
export { STRATEGY_TEXT } from './strategyText';
