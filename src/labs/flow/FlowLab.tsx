import { useCallback, useMemo, useState, useSyncExternalStore, use } from 'react';
import { formatTime, neutraliseBidi } from '../../charts/format';
import { Timeline } from '../../charts/Timeline';
import type { FlowConfig, FlowOutcome } from '../../sim/flow';
import type { Json } from '../../sim/types';
import {


  createFlowStore,
  FLOW_TIE_RULE,
  herdAttemptLimit,


  selectHerd,
  selectOutcomeAt,


  type FlowStore,
  type FlowStoreState,
} from '../../store/flowStore';
import { linkCodecReady } from '../../store/labLink';
import { labStoreFor } from '../../store/labStores';
import { ErrorBanner } from '../common/ErrorBanner';
import { ImportPanel } from '../common/ImportPanel';
import { ScenarioBar } from '../common/ScenarioBar';
import { TieRulePanel } from '../common/TieRulePanel';
import { LabPage } from '../common/LabPage';
import { AllOrdersPanel } from '../common/AllOrdersPanel';
import { ChaosPanel } from '../common/ChaosPanel';
import { PlaybackBar } from '../common/PlaybackBar';
import { useTimelineBinding } from '../common/useTimelineBinding';
import { useFields } from '../common/useFields';
import { flowLanes, flowMarks, flowSeries, type FlowSeries } from './flowMarks';
import { HerdCanvas, HerdControls, HerdTable, OccTable, useHerds } from './HerdPlot';
import { QueueChart } from './QueueChart';
import { ReconnectPanel } from './ReconnectPanel';
import { Controls, Expectations, FlowInvariants, useFlow } from './FlowSide';
import './flow.css';


function subscribeTheme(cb: () => void) {
  const obs = new MutationObserver(cb);
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => obs.disconnect();
}

/** The flow and recovery lab page (lazy-loaded); its store lives while the tab does. */
export function FlowLab() {
  use(linkCodecReady); // the link decoder (a small lazy chunk) before the address is read
  const [store] = useState(() => labStoreFor('flow', () => createFlowStore({ hash: window.location.hash })));
  const theme = useSyncExternalStore(subscribeTheme, () => document.documentElement.dataset.theme ?? 'light');
  const importText = useCallback((text: string, source: string) => store.getState().importText(text, source), [store]);
  const setError = useCallback((e: FlowStoreState['error']) => store.getState().setError(e), [store]);
  const exportJson = useCallback(() => {
    const sc = store.getState().scenario;
    return { filename: `${sc.id}.json`, text: JSON.stringify(sc, null, 2) + '\n' };
  }, [store]);
  return (
    <LabPage store={store} className="flow-lab">
      <FlowError store={store} />
      <Intro store={store} />
      <div className="flow-grid">
        <div className="flow-main">
          <QueuePanel store={store} />
          <TimelinePanel store={store} />
          <AllOrdersPanel lab="flow" />
          <ChaosPanel lab="flow" />
        </div>
        <div className="flow-side">
          <Controls store={store} />
          <Counters store={store} />
          <Expectations store={store} />
          <TieRulePanel rule={FLOW_TIE_RULE} editable />
          <ImportPanel lab="flow" importText={importText} setError={setError} exportJson={exportJson} />
        </div>
      </div>
      <ReconnectPanel store={store} />
      <HerdPanel store={store} theme={theme} />
    </LabPage>
  );
}

function Intro({ store }: { store: FlowStore }) {
  const scenario = useFlow(store, (s) => s.scenario);
  return (
    <section className="panel flow-intro" aria-labelledby="flow-title">
      <p className="muted small">Flow and recovery</p>
      <h1 id="flow-title">{neutraliseBidi(scenario.title)}</h1>
      <ScenarioBar />
      <p className="summary" data-testid="flow-summary">{scenario.summary}</p>
    </section>
  );
}

function FlowError({ store }: { store: FlowStore }) {
  const error = useFlow(store, (s) => s.error);
  return <ErrorBanner error={error} onDismiss={() => store.getState().clearError()} />;
}

function Counters({ store }: { store: FlowStore }) {
  const cursorMs = useFlow(store, (s) => s.cursorMs);
  const endAt = useFlow(store, (s) => s.trace.endAt);
  const o = (useFlow(store, selectOutcomeAt) as FlowOutcome).summary;
  const fleet = o.fleet as Record<string, Json> | undefined;
  const row = (label: string, key: string, value: Json | undefined, tone?: string) => (
    <div className="counter" key={key}>
      <dt>{label}</dt>
      <dd data-testid={`counter-${key}`} className={tone}>{value === null || value === undefined ? '—' : String(value)}</dd>
    </div>
  );
  return (
    <section className="panel" aria-labelledby="flow-counters-h">
      <h2 id="flow-counters-h">At {formatTime(cursorMs)}</h2>
      {cursorMs === 0 && endAt > 0 && (
        <p className="small muted" data-testid="counters-hint">The counts follow the playhead: press Play (Space) or jump to the end (End) to see the run&apos;s outcome.</p>
      )}
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
      <FlowInvariants store={store} />
    </section>
  );
}

const seriesByTrace = new WeakMap<FlowStoreState['trace'], FlowSeries>();

/**
 * What the queue chart and the timeline both draw from: the trace, the playhead (`cursorMs`), the
 * range end (`endMs`) and the trace's step series, computed once per trace for both panels.
 */
function useTraceSeries(store: FlowStore) {
  const { trace, cursorMs, rangeEndMs: endMs } = useFields(store, 'trace', 'cursorMs', 'rangeEndMs');
  let series = seriesByTrace.get(trace);
  if (!series) seriesByTrace.set(trace, (series = flowSeries(trace)));
  return { trace, cursorMs, endMs, series };
}

/** The setting the page shows, in words: the buffer policy (stream scenarios) or the fleet's cap handling and jitter. */
function QueuePanel({ store }: { store: FlowStore }) {
  const { trace, cursorMs, endMs, series } = useTraceSeries(store);
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
  const { trace, cursorMs, endMs, series } = useTraceSeries(store);
  const lanes = useMemo(() => flowLanes(trace), [trace]);
  const marks = useMemo(() => flowMarks(trace, series, cursorMs, endMs), [trace, series, cursorMs, endMs]);
  const binding = useTimelineBinding(store, { select: false, reorder: false, snap: false });
  return (
    <section className="panel" aria-labelledby="flow-tl-h">
      <h2 id="flow-tl-h">Server, proxy and client over virtual time</h2>
      <FlowPlayback store={store} />
      <Timeline {...binding} lanes={lanes} marks={marks} label={`Timeline of ${trace.scenario.title}: lanes ${lanes.map((l) => l.label).join(', ')}`} handleHelpId="flow-handle-help" />
      <p id="flow-handle-help" className="help">
        The buffer row is the server&apos;s SSE queue (its height is the capacity); the proxy row shows what a buffering proxy holds back, with a tick at each flush; the client bar is the
        operation (dashed orange: its idle deadline as of the playhead, reset only by progress). Play, step (←/→), jump (Home/End) or scrub the playhead above; Space plays and pauses. Drag a
        scripted event (● progress, ■ final, ▲ keep-alive, ◆ stall or drop) or focus it and use ←/→; Ctrl+Z undoes.
      </p>
    </section>
  );
}

function FlowPlayback({ store }: { store: FlowStore }) {
  const cursorMs = useFlow(store, (s) => s.cursorMs);
  const rangeEndMs = useFlow(store, (s) => s.rangeEndMs);
  const endAtMs = useFlow(store, (s) => s.trace.endAt);
  const playing = useFlow(store, (s) => s.playing);
  const speed = useFlow(store, (s) => s.speed);
  return <PlaybackBar cursorMs={cursorMs} rangeEndMs={rangeEndMs} endAtMs={endAtMs} playing={playing} speed={speed} controls={store.getState()} />;
}

function HerdPanel({ store, theme }: { store: FlowStore; theme: string }) {
  const settings = useFlow(store, selectHerd);
  const herd = useHerds(settings);
  return (
    <section className="panel" aria-labelledby="herd-h">
      <h2 id="herd-h">Reconnect herd: the same outage, strategy by strategy</h2>
      <p className="small muted">
        Every client loses its stream at 0 ms. The server is down for the outage (shaded), then accepts a fixed number of connections per second (dashed red line, per bucket). One panel per
        strategy, side by side on the same scales: blue bars are connection attempts per bucket, green ticks the accepted ones. Each client tries at most {settings.maxAttempts} times — the SDK default at most {herdAttemptLimit('sdk-default', settings.maxAttempts)} (its maxRetries of 2), then it gives up. Computed in a
        worker, so the slider never waits.
      </p>
      <HerdControls settings={settings} onChange={(patch) => store.getState().setExtra(patch)} />
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
