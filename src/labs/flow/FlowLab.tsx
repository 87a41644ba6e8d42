import { useCallback, useDeferredValue, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useStore } from 'zustand';
import { Timeline } from '../../charts/Timeline';
import { replay } from '../../sim/engine';
import { BUFFER_POLICIES } from '../../sim/flow/buffer';
import { checkFlowExpectation, flowModel, flowOutcomeAt, SSE_HEADERS, withFlowOverrides, type FlowConfig } from '../../sim/flow';
import type { Json } from '../../sim/types';
import { createFlowStore, type FlowStore, type FlowStoreState } from '../../store/flowStore';
import { decodeFlowHash, encodeFlowHash } from '../../store/flowUrl';
import { downloadText } from '../races/download';
import { flowLanes, flowMarks, flowSeries } from './flowMarks';
import { HerdCanvas, HerdControls, HerdTable, OccTable, useHerds } from './HerdPlot';
import { QueueChart } from './QueueChart';
import { ReconnectPanel } from './ReconnectPanel';
import './flow.css';

const POLICY_TEXT: Record<string, string> = {
  lesson: 'lesson: coalesce, drop oldest progress, protect finals',
  unbounded: 'unbounded (memory grows)',
  'drop-oldest': 'drop-oldest ring buffer',
  disconnect: 'disconnect at capacity, then resync',
  'drop-silent': 'BROKEN: drop silently, no refetch mark',
};

function useFlow<T>(store: FlowStore, selector: (s: FlowStoreState) => T): T {
  return useStore(store, selector);
}

function subscribeTheme(cb: () => void) {
  const obs = new MutationObserver(cb);
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => obs.disconnect();
}

/** The flow and recovery lab page (lazy-loaded). */
export function FlowLab() {
  const [store] = useState(() => createFlowStore({ hash: window.location.hash }));
  useEffect(() => {
    // The address follows the scenario (replaceState: no history entry per edit); links opened later load.
    let written = window.location.hash;
    const write = () => {
      const s = store.getState();
      const hash = encodeFlowHash(s.scenario, s.builtins);
      if (hash !== window.location.hash) history.replaceState(history.state, '', hash);
      written = hash;
    };
    write();
    const unsub = store.subscribe((s, prev) => {
      if (s.scenario !== prev.scenario && !s.dragging) write();
      if (prev.dragging && !s.dragging) write();
    });
    const onHash = () => {
      const hash = window.location.hash;
      if (hash === written || !hash.startsWith('#/flow')) return;
      written = hash;
      const s = store.getState();
      const d = decodeFlowHash(hash, s.builtins);
      if (!d.ok) s.setError({ title: 'The link does not hold a valid flow scenario; the previous scenario is kept', errors: d.errors });
      else if (d.scenario) s.loadScenario(d.scenario);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      unsub();
      window.removeEventListener('hashchange', onHash);
    };
  }, [store]);
  const theme = useSyncExternalStore(subscribeTheme, () => document.documentElement.dataset.theme ?? 'light');
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z') return;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
      e.preventDefault();
      if (e.shiftKey) store.getState().redo();
      else store.getState().undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
  return (
    <div className="flow-lab">
      <Intro store={store} />
      <ErrorBox store={store} />
      <div className="flow-grid">
        <div className="flow-main">
          <QueuePanel store={store} />
          <TimelinePanel store={store} />
        </div>
        <div className="flow-side">
          <Controls store={store} />
          <Counters store={store} />
          <Expectations store={store} />
        </div>
      </div>
      <ReconnectPanel />
      <HerdPanel store={store} theme={theme} />
    </div>
  );
}

function Intro({ store }: { store: FlowStore }) {
  const scenario = useFlow(store, (s) => s.scenario);
  const builtins = useFlow(store, (s) => s.builtins);
  const canUndo = useFlow(store, (s) => s.history.past.length > 0);
  const canRedo = useFlow(store, (s) => s.history.future.length > 0);
  return (
    <section className="panel flow-intro" aria-labelledby="flow-title">
      <h1 id="flow-title">Flow and recovery</h1>
      <div className="flow-bar">
        <label className="flow-field">
          <span>Scenario</span>
          <select value={scenario.id} data-testid="flow-scenario" onChange={(e) => store.getState().loadBuiltin(e.target.value)}>
            {builtins.map((s) => (
              <option key={s.id} value={s.id}>{s.title}</option>
            ))}
            {!builtins.some((s) => s.id === scenario.id) && <option value={scenario.id}>{scenario.title}</option>}
          </select>
        </label>
        <div className="button-row">
          <button type="button" onClick={() => store.getState().undo()} disabled={!canUndo} data-testid="flow-undo" title="Undo (Ctrl+Z)">Undo</button>
          <button type="button" onClick={() => store.getState().redo()} disabled={!canRedo} data-testid="flow-redo" title="Redo (Ctrl+Shift+Z)">Redo</button>
          <button type="button" onClick={() => store.getState().reset()} data-testid="flow-reset">Reset to the lesson</button>
          <button type="button" onClick={() => downloadText(`${scenario.id}.json`, JSON.stringify(scenario, null, 2) + '\n')} data-testid="flow-export">Export JSON</button>
          <label className="flow-import">
            Import JSON…
            <input
              type="file"
              accept="application/json,.json"
              data-testid="flow-import"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void file.text().then((t) => store.getState().importText(t), (err: Error) => store.getState().setError({ title: 'The file could not be read', errors: [err.message] }));
              }}
            />
          </label>
        </div>
      </div>
      <p className="summary" data-testid="flow-summary">{scenario.summary}</p>
    </section>
  );
}

function ErrorBox({ store }: { store: FlowStore }) {
  const error = useFlow(store, (s) => s.error);
  if (!error) return null;
  return (
    <div className="flow-error" role="alert" data-testid="flow-error">
      <strong>{error.title}</strong>
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      )}
      <button type="button" onClick={() => store.getState().clearError()}>Dismiss</button>
    </div>
  );
}

function Controls({ store }: { store: FlowStore }) {
  const config = useFlow(store, (s) => s.scenario.config) as unknown as FlowConfig;
  const set = (patch: Record<string, Json>) => store.getState().setConfig(patch);
  const hasStream = config.producers.length > 0 || config.fleet === null;
  return (
    <section className="panel" aria-labelledby="flow-controls-h">
      <h2 id="flow-controls-h">Policy and path</h2>
      {hasStream ? (
        <div className="flow-controls">
          <label className="flow-field">
            <span>Buffer policy</span>
            <select value={config.policy} data-testid="flow-policy" onChange={(e) => set({ policy: e.target.value })}>
              {BUFFER_POLICIES.map((p) => (
                <option key={p} value={p}>{POLICY_TEXT[p]}</option>
              ))}
            </select>
          </label>
          <label className="flow-field">
            <span>Capacity (events)</span>
            <input type="number" min={2} value={config.capacityEvents} data-testid="flow-capacity" onChange={(e) => e.target.value !== '' && set({ capacityEvents: Number(e.target.value) })} />
          </label>
          <label className="flow-check">
            <input type="checkbox" checked={config.proxy.enabled} data-testid="proxy-enabled" onChange={(e) => set({ proxy: { enabled: e.target.checked } })} /> a proxy sits between server and client
          </label>
          <label className="flow-check">
            <input type="checkbox" checked={config.proxy.buffering} disabled={!config.proxy.enabled} data-testid="proxy-buffering" onChange={(e) => set({ proxy: { buffering: e.target.checked } })} /> the proxy buffers (flushes every {config.proxy.flushIntervalMs} ms)
          </label>
          <label className="flow-field">
            <span>Keep-alive every (ms, empty = off)</span>
            <input type="number" min={1} value={config.keepAliveIntervalMs ?? ''} data-testid="flow-keepalive" onChange={(e) => set({ keepAliveIntervalMs: e.target.value === '' ? null : Number(e.target.value) })} />
          </label>
          <label className="flow-check">
            <input type="checkbox" checked={config.bugs.keepAliveResetsIdle} data-testid="bug-keepalive" onChange={(e) => set({ bugs: { keepAliveResetsIdle: e.target.checked } })} /> bug: keep-alives reset the idle timeout
          </label>
          <p className="small muted">
            SSE response headers: <code>{SSE_HEADERS.join(' · ')}</code>. The last one asks nginx-style proxies not to buffer the stream; the switch above shows a proxy that buffers anyway.
          </p>
        </div>
      ) : (
        <div className="flow-controls">
          <label className="flow-field">
            <span>At the stream cap</span>
            <select value={config.fleet?.atCap} data-testid="fleet-atcap" onChange={(e) => set({ fleet: { atCap: e.target.value } })}>
              <option value="evict-oldest">evict the oldest stream</option>
              <option value="reject">reject with 503 + Retry-After</option>
            </select>
          </label>
          <label className="flow-field">
            <span>Reconnect jitter ± (ms)</span>
            <input type="number" min={0} value={config.fleet?.jitterMs ?? 0} data-testid="fleet-jitter" onChange={(e) => e.target.value !== '' && set({ fleet: { jitterMs: Number(e.target.value) } })} />
          </label>
        </div>
      )}
    </section>
  );
}

function Counters({ store }: { store: FlowStore }) {
  const trace = useFlow(store, (s) => s.trace);
  const cursorMs = useFlow(store, (s) => s.cursorMs);
  const o = useMemo(() => flowOutcomeAt(trace, cursorMs).summary, [trace, cursorMs]);
  const fleet = o.fleet as Record<string, Json> | undefined;
  const row = (label: string, key: string, value: Json | undefined, tone?: string) => (
    <div className="counter" key={key}>
      <dt>{label}</dt>
      <dd data-testid={`counter-${key}`} className={tone}>{value === null || value === undefined ? '—' : String(value)}</dd>
    </div>
  );
  return (
    <section className="panel" aria-labelledby="flow-counters-h">
      <h2 id="flow-counters-h">At {cursorMs.toLocaleString('en-US')} ms</h2>
      <dl className="counters">
        {fleet ? (
          <>
            {row('open streams', 'open', fleet.openStreams)}
            {row('evictions', 'evictions', fleet.evictions, (fleet.evictions as number) > 0 ? 'bad-text' : undefined)}
            {row('503 rejections', 'rejections', fleet.rejections)}
            {row('reconnects after restart', 'reconnected', fleet.reconnected)}
            {row('reconnect spread (ms)', 'spread', fleet.reconnectSpreadMs)}
            {row('peak per 100 ms', 'peak100', fleet.peakReconnectsPer100Ms)}
          </>
        ) : (
          <>
            {row('queued now', 'depth', o.depth)}
            {row('peak depth', 'peak', o.peakDepth, (o.peakDepth as number) > (o.capacityEvents as number) ? 'bad-text' : undefined)}
            {row('progress dropped', 'dropped', o.dropped)}
            {row('coalesced', 'coalesced', o.coalesced)}
            {row('discarded (only finals left)', 'discarded', o.discarded)}
            {row('finals refused', 'refused', o.finalsRefused)}
            {row('finals dropped', 'finals-dropped', o.finalsDropped, (o.finalsDropped as number) > 0 ? 'bad-text' : undefined)}
            {row('lost silently', 'silent', o.silentlyLost, (o.silentlyLost as number) > 0 ? 'bad-text' : undefined)}
            {row('lost with the stream', 'lost-down', o.lostWhileDown)}
            {row('refetched tokens', 'refetched', o.refetched)}
            {row('disconnects / resyncs', 'resyncs', `${o.disconnects} / ${o.resyncs}`)}
            {row('keep-alives delivered', 'keepalives', o.deliveredKeepalives)}
            {row('proxy read timeouts', 'proxy-timeouts', o.proxyTimeouts)}
            {row('operation', 'operation', o.operationEndedAtMs === null ? o.operation : `${o.operation} at ${o.operationEndedAtMs} ms`)}
          </>
        )}
      </dl>
      <InvariantList store={store} />
    </section>
  );
}

function InvariantList({ store }: { store: FlowStore }) {
  const invariants = useFlow(store, (s) => s.trace.invariants);
  return (
    <ul className="invariants">
      {invariants.map((inv) => (
        <li key={inv.name} data-testid={`invariant-${inv.name}`} data-status={inv.firstViolation ? 'violated' : 'holds'}>
          <span className={`badge ${inv.firstViolation ? 'badge-bad' : 'badge-ok'}`}>{inv.firstViolation ? 'violated' : 'holds'}</span> {inv.description}
          {inv.firstViolation && <span className="small bad-text"> — at {inv.firstViolation.at} ms: {inv.firstViolation.message}</span>}
        </li>
      ))}
    </ul>
  );
}

function Expectations({ store }: { store: FlowStore }) {
  const scenario = useFlow(store, (s) => s.original);
  const deferred = useDeferredValue(scenario);
  const results = useMemo(
    () => (deferred.expect ?? []).map((e) => ({ e, mismatches: checkFlowExpectation(replay(flowModel, withFlowOverrides(deferred, e.overrides as Record<string, Json> | undefined), { keep: 'effects' }), e) })),
    [deferred],
  );
  return (
    <section className="panel" aria-labelledby="flow-expect-h">
      <h2 id="flow-expect-h">The lesson says (replayed)</h2>
      <ul className="expectations">
        {results.map(({ e, mismatches }) => (
          <li key={e.label}>
            <span className={`badge ${mismatches.length ? 'badge-bad' : 'badge-ok'}`}>{mismatches.length ? 'differs' : 'holds'}</span> {e.label}
            {e.overrides && (
              <button type="button" className="link-button" onClick={() => store.getState().setConfig(e.overrides as Record<string, Json>)}>
                try it
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function QueuePanel({ store }: { store: FlowStore }) {
  const trace = useFlow(store, (s) => s.trace);
  const cursorMs = useFlow(store, (s) => s.cursorMs);
  const endMs = useFlow(store, (s) => s.rangeEndMs);
  const series = useMemo(() => flowSeries(trace), [trace]);
  const config = trace.scenario.config as unknown as FlowConfig;
  if (config.fleet && config.producers.length === 0 && trace.scenario.events.length === 0) {
    const o = trace.outcome.summary.fleet as Record<string, Json>;
    return (
      <section className="panel" aria-labelledby="flow-queue-h">
        <h2 id="flow-queue-h">Streams held by the server</h2>
        <p data-testid="fleet-verdict">
          {config.fleet.maxStreams !== null && (
            <>
              Cap {config.fleet.maxStreams}, {config.fleet.clients} clients: {String(o.evictions)} evictions and {String(o.rejections)} rejections; the set of open streams last changed at{' '}
              {String(o.lastChangeAtMs)} ms — {o.settled ? 'it settled.' : 'it never settles.'}{' '}
            </>
          )}
          {config.fleet.restart && (
            <>
              After the restart, {String(o.reconnected)} reconnects landed between {String(o.firstReconnectAtMs)} and {String(o.lastReconnectAtMs)} ms (spread {String(o.reconnectSpreadMs)} ms), at most{' '}
              {String(o.peakReconnectsPer100Ms)} in one 100 ms bucket.
            </>
          )}
        </p>
        <p className="small muted">The timeline below draws the open streams over time with each eviction (×), 503 (|) and reconnect (○).</p>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby="flow-queue-h">
      <h2 id="flow-queue-h">Queue depth against capacity</h2>
      <QueueChart trace={trace} series={series} cursorMs={cursorMs} endMs={endMs} />
    </section>
  );
}

function TimelinePanel({ store }: { store: FlowStore }) {
  const trace = useFlow(store, (s) => s.trace);
  const cursorMs = useFlow(store, (s) => s.cursorMs);
  const endMs = useFlow(store, (s) => s.rangeEndMs);
  const loadCount = useFlow(store, (s) => s.loadCount);
  const series = useMemo(() => flowSeries(trace), [trace]);
  const lanes = useMemo(() => flowLanes(trace), [trace]);
  const marks = useMemo(() => flowMarks(trace, series, cursorMs, endMs), [trace, series, cursorMs, endMs]);
  const domain = useMemo(() => [0, endMs] as const, [endMs]);
  const onSeek = useCallback((ms: number) => store.getState().seek(ms), [store]);
  const onMove = useCallback((id: string, ms: number) => store.getState().moveEvent(id, ms), [store]);
  const onStart = useCallback(() => store.getState().beginDrag(), [store]);
  const onEnd = useCallback(() => store.getState().endDrag(), [store]);
  const onNudge = useCallback((id: string, d: number) => store.getState().nudgeEvent(id, d), [store]);
  return (
    <section className="panel" aria-labelledby="flow-tl-h">
      <h2 id="flow-tl-h">Server, proxy and client over virtual time</h2>
      <Timeline
        lanes={lanes}
        marks={marks}
        domain={domain}
        cursorMs={cursorMs}
        label={`Timeline of ${trace.scenario.title}: lanes ${lanes.map((l) => l.label).join(', ')}`}
        onSeek={onSeek}
        onHandleMove={onMove}
        onHandleDragStart={onStart}
        onHandleDragEnd={onEnd}
        onHandleNudge={onNudge}
        resetKey={loadCount}
        handleHelpId="flow-handle-help"
      />
      <label className="flow-field flow-scrub">
        <span>Playhead</span>
        <input type="range" min={0} max={endMs} step={1} value={cursorMs} data-testid="flow-cursor" aria-valuetext={`${cursorMs} ms`} onChange={(e) => store.getState().seek(Number(e.target.value))} />
      </label>
      <p id="flow-handle-help" className="help">
        The buffer row is the server&apos;s SSE queue (its height is the capacity); the proxy row shows what a buffering proxy holds back, with a tick at each flush; the client bar is the
        operation (dashed orange: its idle deadline as of the playhead, reset only by progress). Drag a scripted event (● progress, ■ final, ▲ keep-alive, ◆ stall or drop) or focus it and use
        ←/→; Ctrl+Z undoes.
      </p>
    </section>
  );
}

function HerdPanel({ store, theme }: { store: FlowStore; theme: string }) {
  const settings = useFlow(store, (s) => s.herd);
  const herd = useHerds(settings);
  return (
    <section className="panel" aria-labelledby="herd-h">
      <h2 id="herd-h">Reconnect herd: the same outage, strategy by strategy</h2>
      <p className="small muted">
        Every client loses its stream at 0 ms. The server is down for the outage (shaded), then accepts a fixed number of connections per second (dashed red line, per bucket). Blue bars are
        connection attempts per bucket, green ticks the accepted ones. Each client tries at most 8 times. Computed in a worker, so the slider never waits.
      </p>
      <HerdControls settings={settings} onChange={(patch) => store.getState().setHerd(patch)} />
      {herd === null ? (
        <p role="status">Computing the herd…</p>
      ) : (
        <>
          {herd.error && <p className="bad-text" role="alert">{herd.error}</p>}
          <HerdCanvas results={herd.results} settings={herd.settings} theme={theme} />
          <HerdTable results={herd.results} settings={herd.settings} />
        </>
      )}
      <OccTable />
    </section>
  );
}
