import { loadBuiltinScenarios } from '../sim/__tests__/builtinScenarios';
import { replayFlow, withFlowOverrides, type FlowConfig } from '../sim/flow';
import type { Json, Scenario } from '../sim/types';
import { flowDifferences, labFlowFacts, notExpressibleFlowV2, observeFlowV2, summarizeFlow, type FlowFacts, type FlowV2Observation } from './flowDriver';
import type { V1V2Row } from './table';

/**
 * The flow lab's cases for the SDK v2 oracle (`flowV2.test.ts`, and the flow rows of the README
 * table "lab vs SDK v1 vs SDK v2" that `differentialV2.test.ts` writes): every expectation block of
 * every flow built-in the SDK v2 pair can express (`notExpressibleFlowV2`; blocks that switch a
 * lab bug on are not), and, for each, what the SDK v2 does differently from the lab and which SDK
 * behaviour names it.
 *
 * The lab's client without an idle timeout has no timeout at all; the SDK always arms one
 * (`sdk.default-timeout`: core-internal/src/shared/protocol.ts `DEFAULT_REQUEST_TIMEOUT_MSEC`), so
 * such a case runs twice: with the longest timeout the SDK's timer can hold (`MAX_TIMER_MS`, the
 * stand-in for "none": the comparison), and with the timeout omitted (the SDK's default).
 */

/** The longest delay a timer holds (Node turns a larger one into 1 ms): the SDK call's stand-in for the lab client's "no timeout". */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The flow built-ins the SDK v2 pair cannot express, in file order (`notExpressibleFlowV2` says why). */
export const FLOW_NOT_EXPRESSIBLE_V2 = ['F1-stalled-subscriber', 'F2-stream-cap', 'F3-restart-herd', 'LE1-last-event-id-second-drop', 'R1-coalesce-one-token', 'R2-two-tokens', 'RC1-get-reconnects-forever', 'RC2-get-200-not-405', 'RC3-stdio-exits-after-handshake', 'SB1-one-slot-sse-buffer'];

/** One driven case: a built-in with one expectation block's overrides. `key` is `<id> <overrides as JSON>`. */
export interface FlowV2Case {
  key: string;
  id: string;
  title: string;
  label: string;
  /** The block's overrides are none: the built-in as written (the README table's rows). */
  asWritten: boolean;
  scenario: Scenario;
}

/** What the SDK v2 does differently from the lab in one run: the facts that differ, and the SDK behaviours that name them. */
export interface Expected {
  differs: (keyof FlowFacts)[];
  behaviours: string[];
}

const AGREES: Expected = { differs: [], behaviours: [] };
/** The call's stream is cut before its result: the SDK client neither fails nor re-issues it (no new id, no reconnect, no new execution). */
const PENDING_ON_CUT = ['operationRequestId', 'reissues', 'reconnects'] as const;

/**
 * Per case: the run with the longest timeout (`long`; for a scenario with an idle timeout, that
 * timeout) and the run with the SDK's default timeout (`default`; only when the lab's client has
 * none). Hand-derived from the scenarios (times in `flowV2.test.ts`).
 */
export const FLOW_V2_EXPECTED: Record<string, { long: Expected; default?: Expected }> = {
  'P1-proxy-buffering {}': { long: AGREES },
  'P1-proxy-buffering {"proxy":{"buffering":false}}': { long: AGREES },
  'P2-keepalive-not-progress {}': { long: AGREES },
  // the proxy's read timeout cuts at 20000 ms: the lab re-issues every 21 s and never ends; the SDK call stays on its request until its 30000 ms idle timeout
  'P2-keepalive-not-progress {"keepAliveIntervalMs":null}': { long: { differs: ['operation', 'operationEndedAtMs', ...PENDING_ON_CUT, 'operationExecutions', 'disconnects', 'proxyTimeouts'], behaviours: ['sdk.broken-stream-pending'] } },
  'P3-accel-buffering-header {}': { long: AGREES },
  // cut at 4000 ms with the proxy holding everything: the lab re-issues at 4500 ms and the key answers at the 5000 ms flush; the SDK call waits on the lost request
  'RI1-broken-stream-reissue {}': {
    long: { differs: ['operation', 'operationEndedAtMs', ...PENDING_ON_CUT, 'deliveredFinals'], behaviours: ['sdk.broken-stream-pending'] },
    // the same facts at the 20000 ms horizon; the call then fails at the SDK's 60000 ms default
    default: { differs: ['operation', 'operationEndedAtMs', ...PENDING_ON_CUT, 'deliveredFinals'], behaviours: ['sdk.broken-stream-pending', 'sdk.default-timeout'] },
  },
  // cut at 60000 ms: the lab re-issues every 61 s; the SDK call stays pending on its request (one execution, one cut). With the SDK's default timeout the call times out at 60000 ms itself, before the proxy's cut
  'RI2-reissue-meets-proxy-timeout {}': {
    long: { differs: [...PENDING_ON_CUT, 'operationExecutions', 'disconnects', 'proxyTimeouts'], behaviours: ['sdk.broken-stream-pending'] },
    default: { differs: ['operation', 'operationEndedAtMs', ...PENDING_ON_CUT, 'operationExecutions', 'disconnects', 'firstDisconnectAtMs', 'proxyTimeouts'], behaviours: ['sdk.default-timeout'] },
  },
  'RI2-reissue-meets-proxy-timeout {"horizonMs":1000000}': {
    long: { differs: [...PENDING_ON_CUT, 'operationExecutions', 'disconnects', 'proxyTimeouts'], behaviours: ['sdk.broken-stream-pending'] },
    default: { differs: ['operation', 'operationEndedAtMs', ...PENDING_ON_CUT, 'operationExecutions', 'disconnects', 'firstDisconnectAtMs', 'proxyTimeouts'], behaviours: ['sdk.default-timeout'] },
  },
  // keep-alives hold the proxy open: completed at 90000 ms on both; with the SDK's default timeout the call fails at 60000 ms (keep-alive comments are not progress)
  'RI2-reissue-meets-proxy-timeout {"keepAliveIntervalMs":15000}': { long: AGREES, default: { differs: ['operation', 'operationEndedAtMs', 'deliveredFinals'], behaviours: ['sdk.default-timeout'] } },
};

/** Every driven case, in file and block order. */
export function flowV2Cases(): FlowV2Case[] {
  const out: FlowV2Case[] = [];
  for (const { scenario } of loadBuiltinScenarios('flow')) {
    for (const block of scenario.expect ?? []) {
      const overrides = (block.overrides ?? {}) as Record<string, Json>;
      const s = withFlowOverrides(scenario, overrides);
      if (notExpressibleFlowV2(s) !== null) continue;
      out.push({ key: `${scenario.id} ${JSON.stringify(overrides)}`, id: scenario.id, title: scenario.title, label: block.label, asWritten: Object.keys(overrides).length === 0, scenario: s });
    }
  }
  return out;
}

/** Whether the case's client has no idle timeout of its own (then it runs with `MAX_TIMER_MS` and with the SDK's default). */
export const withoutTimeout = (c: FlowV2Case): boolean => (c.scenario.config as unknown as FlowConfig).client.idleTimeoutMs === null;

/** One case on the SDK v2 (call at fake time 0): the long run, and the default-timeout run when the client has no timeout of its own. */
export async function runFlowV2Case(c: FlowV2Case, advance: (ms: number) => Promise<unknown>, setTime: (ms: number) => void): Promise<{ long: FlowV2Observation; default: FlowV2Observation | null }> {
  const horizon = (c.scenario.config as unknown as FlowConfig).horizonMs;
  setTime(0);
  const long = await observeFlowV2(c.scenario, advance, { timeoutMs: MAX_TIMER_MS });
  if (!withoutTimeout(c)) return { long, default: null };
  setTime(0);
  // long enough for the 60000 ms default re-armed by any progress before the horizon
  const dflt = await observeFlowV2(c.scenario, advance, { timeoutMs: undefined, untilMs: horizon + 60_000 });
  return { long, default: dflt };
}

/** The README table row of a case run (`differentialV2.test.ts`): the lab's facts, the SDK v2's, the differences of both runs and the behaviours that name them. */
export function flowV2Row(c: FlowV2Case, runs: { long: FlowV2Observation; default: FlowV2Observation | null }): V1V2Row {
  const horizon = (c.scenario.config as unknown as FlowConfig).horizonMs;
  const lab = labFlowFacts(replayFlow(c.scenario));
  const expected = FLOW_V2_EXPECTED[c.key];
  const settled = (o: FlowV2Observation) => (o.settled.kind === 'pending' ? 'still waiting' : o.settled.kind === 'result' ? `completed at ${o.settled.atMs} ms` : `${o.settled.code === 'REQUEST_TIMEOUT' ? 'timeout-idle' : 'failed'} at ${o.settled.atMs} ms`);
  const v2 = runs.default
    ? `with the longest timeout (${MAX_TIMER_MS} ms): ${summarizeFlow(runs.long.facts, horizon)} · with the SDK's default timeout: ${settled(runs.default)}`
    : summarizeFlow(runs.long.facts, horizon);
  const differences = [...flowDifferences(lab, runs.long.facts), ...(runs.default ? flowDifferences(lab, runs.default.facts).map((d) => `default timeout: ${d}`) : [])];
  const behaviours = [...new Set([...(expected?.long.behaviours ?? []), ...(expected?.default?.behaviours ?? [])])].sort();
  return { id: c.id, title: c.title, source: 'flow built-in', link: 'http', lab: summarizeFlow(lab, horizon), v1: 'not driven: the flow oracle runs SDK v2 only (src/sdk-oracle/flowV2.test.ts)', v2, differences, behaviours };
}
