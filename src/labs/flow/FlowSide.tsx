import { InvariantList } from '../common/InvariantsPanel';
import { useDeferredValue, useMemo } from 'react';
import { useStore } from 'zustand';
import type { FlowConfig } from '../../sim/flow';
import type { Json } from '../../sim/types';
import {
  BUFFER_POLICIES,
  checkFlowExpectation,


  proxyBuffersConfig,
  replayFlowEffects,


  sentSseHeaders,
  withFlowOverrides,
  type FlowStore,
  type FlowStoreState,
} from '../../store/flowStore';
import { stableStringify } from '../../store/stableJson';

const POLICY_TEXT: Record<string, string> = {
  lesson: 'lesson: coalesce, drop oldest progress, protect finals',
  unbounded: 'unbounded (memory grows)',
  'drop-oldest': 'drop-oldest ring buffer',
  disconnect: 'disconnect at capacity, then resync',
  'drop-silent': 'BROKEN: drop silently, no refetch mark',
};

/** Reads one slice of the flow store. */
export function useFlow<T>(store: FlowStore, selector: (s: FlowStoreState) => T): T {
  return useStore(store, selector);
}


/** The flow page's side panels: the settings and the lesson's rows with the invariants. */

export function Controls({ store }: { store: FlowStore }) {
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
            <input type="number" min={1} value={config.capacityEvents} data-testid="flow-capacity" onChange={(e) => e.target.value !== '' && set({ capacityEvents: Number(e.target.value) })} />
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
          <label className="flow-check">
            <input type="checkbox" checked={config.proxy.honoursAccelBuffering} disabled={!config.proxy.enabled || !config.proxy.buffering} data-testid="proxy-honours-accel" onChange={(e) => set({ proxy: { honoursAccelBuffering: e.target.checked } })} /> the proxy is nginx-like: X-Accel-Buffering: no turns its buffering off
          </label>
          <label className="flow-check">
            <input type="checkbox" checked={config.bugs.omitAccelBufferingHeader} data-testid="bug-accel-header" onChange={(e) => set({ bugs: { omitAccelBufferingHeader: e.target.checked } })} /> bug: the server leaves out X-Accel-Buffering: no
          </label>
          <p className="small muted" data-testid="sse-headers">
            SSE response headers sent: <code>{sentSseHeaders(config).join(' · ')}</code>.{' '}
            {!config.proxy.enabled || !config.proxy.buffering
              ? 'No buffering proxy in the way.'
              : proxyBuffersConfig(config)
                ? config.proxy.honoursAccelBuffering
                  ? 'Without X-Accel-Buffering: no the nginx-like proxy buffers the stream.'
                  : 'This proxy ignores X-Accel-Buffering and buffers anyway.'
                : 'The proxy honours X-Accel-Buffering: no and passes every event through unbuffered.'}
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

function settingText(config: FlowConfig): string {
  if (config.fleet && config.producers.length === 0) {
    const f = config.fleet;
    return `${f.maxStreams !== null ? `at the cap: ${f.atCap === 'reject' ? 'reject with 503 + Retry-After' : 'evict the oldest stream'}; ` : ''}reconnect jitter ±${f.jitterMs} ms`;
  }
  return `buffer policy ${POLICY_TEXT[config.policy] ?? config.policy}${config.proxy.enabled ? `, proxy buffering ${config.proxy.buffering ? 'on' : 'off'}` : ''}${config.bugs.keepAliveResetsIdle ? ', keep-alive bug on' : ''}`;
}

/** An expectation's overrides as "field = value" pairs ("as shipped" when none). */
function overridesText(overrides: Json | undefined): string {
  const out: string[] = [];
  const walk = (prefix: string, v: Json) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x);
    else out.push(`${prefix} = ${v === null ? 'off' : String(v)}`);
  };
  if (overrides) walk('', overrides);
  return out.length ? out.join(', ') : 'as shipped';
}

/** The lesson's rows, each replayed on the scenario as loaded with its overrides; `current` marks the one equal to what the page shows. */
function useLessonRows(store: FlowStore) {
  const original = useFlow(store, (s) => s.original);
  const scenario = useFlow(store, (s) => s.scenario);
  const deferred = useDeferredValue(original);
  const results = useMemo(
    () =>
      (deferred.expect ?? []).map((e) => {
        const applied = withFlowOverrides(deferred, e.overrides as Record<string, Json> | undefined);
        return { e, key: stableStringify({ config: applied.config, events: applied.events }), mismatches: checkFlowExpectation(replayFlowEffects(applied), e) };
      }),
    [deferred],
  );
  const currentKey = useMemo(() => stableStringify({ config: scenario.config, events: scenario.events }), [scenario]);
  return results.map((r) => ({ ...r, current: r.key === currentKey }));
}

export function FlowInvariants({ store }: { store: FlowStore }) {
  const config = useFlow(store, (s) => s.scenario.config) as unknown as FlowConfig;
  const row = useLessonRows(store).find((r) => r.current);
  return (
    <>
      <h3 className="flow-inv-h" data-testid="invariants-setting">
        Checks under {settingText(config)}
        {row ? <span className="muted"> — the lesson&apos;s row “{row.e.label}”</span> : <span className="muted"> — an edited setting (no lesson row)</span>}
      </h3>
      <InvariantList describe={(inv) => inv.description} />
    </>
  );
}

export function Expectations({ store }: { store: FlowStore }) {
  const rows = useLessonRows(store);
  return (
    <section className="panel" aria-labelledby="flow-expect-h">
      <h2 id="flow-expect-h">The lesson says (each row replayed)</h2>
      <p className="small muted">Each row replays this scenario with one setting and checks the lesson&apos;s numbers. ● marks the setting shown above; “show it” switches to a row (Ctrl+Z goes back).</p>
      <ul className="expectations">
        {rows.map(({ e, mismatches, current }, i) => (
          <li key={e.label} data-testid="lesson-row" data-index={i} data-current={current} className={current ? 'is-current' : undefined}>
            <span className={`badge ${mismatches.length ? 'badge-bad' : 'badge-ok'}`} title={mismatches.map((m) => `${m.field}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`).join('\n') || undefined}>
              {mismatches.length ? 'replay differs' : 'replay agrees'}
            </span>{' '}
            {e.label}
            <div className="small muted">
              setting: <code>{overridesText(e.overrides)}</code>
              {e.violates && e.violates.length > 0 && <> · breaks {e.violates.join(', ')} (on purpose)</>}{' '}
              {current ? (
                <strong className="flow-current">● shown now</strong>
              ) : (
                <button type="button" className="link-button" onClick={() => store.getState().applyOverrides(e.overrides as Record<string, Json> | undefined)}>
                  show it
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
