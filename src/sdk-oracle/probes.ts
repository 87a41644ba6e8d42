import type { RacesScenarioFile } from './driver';

/**
 * Extra scenarios the differential suite drives beside the built-ins: each isolates one place
 * where the TypeScript SDK v1 and the lab's correct policy could differ and no built-in shows it.
 * Same file shape as `public/scenarios/races/*.json` (stdio; ids chosen by the scenario, the SDK
 * picks its own). Times in ms.
 */

type Probe = RacesScenarioFile & { format: 1; lab: 'races'; seed: number; summary: string };

const probe = (id: string, title: string, summary: string, config: RacesScenarioFile['config'], events: RacesScenarioFile['events']): Probe => ({
  format: 1,
  lab: 'races',
  id,
  title,
  summary,
  seed: 1,
  config: { transport: 'stdio', latencyMs: { clientToServer: 0, serverToClient: 0 }, progressResetsIdleTimeout: true, ...config },
  events,
});

const start = (extra: Record<string, unknown>) => ({ id: 'start', at: 0, actor: 'client', kind: 'start', requestId: 1, tool: 'work', ...extra });

/** The probes, in table order. */
export const SDK_PROBES: Probe[] = [
  probe('probe-abort-after-result', 'Abort after the result', 'The result arrives at 100 ms; the user presses Stop at 200 ms.', {}, [
    start({ progressToken: 't', idleTimeoutMs: 1000, maxTimeoutMs: 5000 }),
    { id: 'done', at: 100, actor: 'server', kind: 'complete', requestId: 1, text: 'ok' },
    { id: 'stop', at: 200, actor: 'client', kind: 'cancel', requestId: 1, reason: 'User pressed Stop' },
  ]),
  probe('probe-no-timeout-option', 'No timeout option, a 70 s call', 'No idle or maximum timeout; the work finishes at 70 000 ms.', {}, [
    start({}),
    { id: 'done', at: 70_000, actor: 'server', kind: 'complete', requestId: 1, text: 'ok' },
  ]),
  probe('probe-idle-without-maximum', 'Idle timeout without a maximum', 'Idle 1000 ms, no maximum; the work finishes at 500 ms.', {}, [
    start({ idleTimeoutMs: 1000 }),
    { id: 'done', at: 500, actor: 'server', kind: 'complete', requestId: 1, text: 'ok' },
  ]),
  probe('probe-repeated-progress', 'Progress that does not increase', 'Idle 300 ms, maximum 5000 ms; progress 1 at 200 ms and again 1 at 400 ms; done at 600 ms.', {}, [
    start({ progressToken: 't', idleTimeoutMs: 300, maxTimeoutMs: 5000 }),
    { id: 'p1', at: 200, actor: 'server', kind: 'progress', requestId: 1, progress: 1 },
    { id: 'p1-again', at: 400, actor: 'server', kind: 'progress', requestId: 1, progress: 1 },
    { id: 'done', at: 600, actor: 'server', kind: 'complete', requestId: 1, text: 'ok' },
  ]),
  probe('probe-no-reset-on-progress', 'Maximum with resetTimeoutOnProgress off', 'Idle 1000 ms, maximum 150 ms, progress at 200 ms, progress does not reset the timer.', { progressResetsIdleTimeout: false }, [
    start({ progressToken: 't', idleTimeoutMs: 1000, maxTimeoutMs: 150 }),
    { id: 'p1', at: 200, actor: 'server', kind: 'progress', requestId: 1, progress: 1 },
  ]),
];

/**
 * Probes only the SDK v2 oracle drives (Streamable HTTP under 2026-07-28, which SDK v1 cannot
 * speak): the network cuts a call's response stream (`sdk.broken-stream-pending`).
 */
export const SDK_V2_PROBES: Probe[] = [
  probe('probe-v2-cut-result-in-flight', 'A cut stream loses the result in flight', 'Streamable HTTP, 20 ms each way: the result leaves at 500 ms, the network cuts the stream at 510 ms while it is on the wire.', { revision: '2026-07-28', transport: 'streamable-http', latencyMs: { clientToServer: 20, serverToClient: 20 } } as RacesScenarioFile['config'], [
    start({ idleTimeoutMs: 5000, maxTimeoutMs: 10_000 }),
    { id: 'done', at: 500, actor: 'server', kind: 'complete', requestId: 1, text: 'invoice 42 sent' },
    { id: 'cut', at: 510, actor: 'client', kind: 'disconnect', requestId: 1, label: 'proxy cuts the stream' },
  ]),
  probe('probe-v2-cut-mid-work', 'A cut stream while the work runs', 'Streamable HTTP, 20 ms each way, progress at 100 ms: the network cuts the stream at 300 ms; the work would finish at 500 ms.', { revision: '2026-07-28', transport: 'streamable-http', latencyMs: { clientToServer: 20, serverToClient: 20 } } as RacesScenarioFile['config'], [
    start({ progressToken: 't', idleTimeoutMs: 2000, maxTimeoutMs: 10_000 }),
    { id: 'p1', at: 100, actor: 'server', kind: 'progress', requestId: 1, progress: 1 },
    { id: 'cut', at: 300, actor: 'client', kind: 'disconnect', requestId: 1, label: 'proxy cuts the stream' },
    { id: 'done', at: 500, actor: 'server', kind: 'complete', requestId: 1, text: 'report ready' },
  ]),
];

