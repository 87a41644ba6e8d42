import { checkBoolean, checkNumber } from './validate';

/**
 * Cancellation propagation as the retry-storm postmortem measured it ("取消信号的瘟疫传播机制" →
 * "故障链完整复盘"), and the "half-finished result" ("半成品"结果) its authors had not designed for.
 *
 * Facts taken from the text:
 * - the chain is client → MCP Server → OpenAI API → model cluster ("客户端 → MCP Server → OpenAI API
 *   → 模型计算集群"): four nodes, three hops;
 * - "取消信号平均需要320ms才能穿透整个调用链": 320 ms on average to cross the WHOLE chain, not one
 *   hop (the storm model follows it too since issue 13 item 5: `cancelHopMs` in src/sim/resilience/stormTypes.ts);
 * - when the MCP server force-closed its connection to the upstream, 73 % of the response had been
 *   transferred ("响应已经传输了73%的内容");
 * - the upstream's streaming mechanism re-queued the unfinished request (undocumented behaviour,
 *   "将未完成请求重新排队");
 * - in the same millisecond the client's retry logic sent a second identical request
 *   ("同一毫秒内,客户端重试逻辑发起第二轮相同请求"), so the upstream held two identical requests;
 * - the protocol table: a cancel signal is honoured about 300 ms late ("延迟300ms响应");
 * - the fixes listed in the roadmap: a request fingerprint at the gateway ("在网关层增加请求DNA指纹
 *   (防止重复提交)", improvement 1) and a priority channel for cancel signals ("新增取消信号优先传播通道",
 *   improvement 5).
 * The priority channel is modelled as ordering, not speed: the MCP server forwards the cancel ahead
 * of closing the connection, so the upstream sees a cancel, not a dropped connection, and does not
 * re-queue. The text gives no latency for it, so it crosses the chain in the same 320 ms.
 * Pure: no clock, no randomness; times are virtual ms.
 */

/** The postmortem's chain, first node to last. */
export const POSTMORTEM_CHAIN: readonly string[] = ['client', 'MCP server', 'upstream API', 'model cluster'];
/** "取消信号平均需要320ms才能穿透整个调用链". */
export const WHOLE_CHAIN_CANCEL_MS = 320;
/** "响应已经传输了73%的内容". */
export const TRANSFERRED_AT_CUT = 0.73;
/** The protocol table's "延迟300ms响应" for a cancel signal at the upstream. */
export const UPSTREAM_CANCEL_DELAY_MS = 300;

/**
 * Per-hop time when `wholeChainMs` covers `hops` hops evenly: wholeChainMs / hops (320 / 3 ≈
 * 106.67 ms). Throws a RangeError naming the field for a negative time or fewer than one hop.
 */
export function perHopMsFromWholeChain(wholeChainMs: number, hops: number): number {
  checkNumber('wholeChainMs', wholeChainMs, { min: 0 });
  checkNumber('hops', hops, { min: 1, integer: true });
  return wholeChainMs / hops;
}

/** When a cancel reaches one node. */
export interface CancelArrival {
  node: string;
  atMs: number;
}

/**
 * When a cancel sent by the first node at `cancelAtMs` reaches each node, the whole chain taking
 * `wholeChainMs` split evenly over its hops (not rounded: 8000 → 8106.67, 8213.33, 8320 for the
 * postmortem's chain). `chain` defaults to the postmortem's four nodes. Throws a RangeError naming
 * the field for a negative time or a chain of fewer than two nodes.
 */
export function cancelArrivals(cancelAtMs: number, wholeChainMs: number = WHOLE_CHAIN_CANCEL_MS, chain: readonly string[] = POSTMORTEM_CHAIN): CancelArrival[] {
  checkNumber('cancelAtMs', cancelAtMs, { min: 0 });
  if (chain.length < 2) throw new RangeError(`chain: ${chain.length} node(s) — give at least two nodes`);
  const hop = perHopMsFromWholeChain(wholeChainMs, chain.length - 1);
  return chain.map((node, i) => ({ node, atMs: i === chain.length - 1 ? cancelAtMs + wholeChainMs : cancelAtMs + hop * i }));
}

/** One upstream execution of the user's request. */
export interface ChainExecution {
  id: string;
  /** Why it started. */
  cause: 'original' | 'upstream-requeue' | 'client-retry';
  startAtMs: number;
  /** When it stopped, or null if nothing stops it (it runs to completion unseen). */
  stoppedAtMs: number | null;
  /** Fraction of its response produced when it stopped (the original: 0.73 at the cut). */
  transferredFraction: number | null;
}

/** One line of the timeline. */
export interface ChainEvent {
  atMs: number;
  node: string;
  what: string;
}

/** Inputs of `simulateHalfFinished`. */
export interface HalfFinishedInput {
  /** When the user clicks "stop generating", ms. */
  cancelAtMs: number;
  /** Time a cancel takes across the whole chain, ms (320). */
  wholeChainMs?: number;
  /** Fraction of the response already transferred when the MCP server cuts the upstream (0.73). */
  transferredAtCut?: number;
  /** Delay before the upstream honours an explicit cancel, ms (300). */
  upstreamCancelDelayMs?: number;
  /** The upstream re-queues a request whose connection dropped (the incident: true). */
  upstreamRequeuesOnDisconnect?: boolean;
  /** The client's retry logic fires a second identical request at the cut (the incident: true). */
  clientRetriesAtCut?: boolean;
  /** The two fixes of the postmortem's roadmap. */
  fix?: { priorityCancelChannel?: boolean; gatewayFingerprint?: boolean };
}

/** The case's outcome. */
export interface HalfFinishedResult {
  /** When the cancel reaches each node. */
  arrivals: CancelArrival[];
  executions: ChainExecution[];
  /** Executions that started after the user's cancel. */
  executionsAfterCancel: number;
  /**
   * What the user is left with: 'half-finished' = a 73 % partial response from the cut request
   * while a duplicate (re-queued or retried) produces another one; 'duplicate-result' = the
   * original stopped cleanly but the retry still runs and answers a cancelled action;
   * 'cancelled' = a clean stop, one execution.
   */
  clientSees: 'half-finished' | 'duplicate-result' | 'cancelled';
  /** Names of the safety properties broken: one-execution-per-action, no-work-after-cancel. */
  violations: string[];
  timeline: ChainEvent[];
}

/**
 * The half-finished result case. The user cancels at `cancelAtMs`; the cancel reaches the MCP
 * server one hop later (wholeChainMs / 3), which cuts its upstream connection with
 * `transferredAtCut` of the response transferred.
 * Without the priority channel the upstream sees a dropped connection: it re-queues the request
 * (a new execution at the cut) when `upstreamRequeuesOnDisconnect`, and nothing ever stops the
 * re-queued run. With it, the cancel goes ahead of the close: the upstream stops the original
 * `upstreamCancelDelayMs` after the cancel reaches it (at cancelAtMs + 2·hop) and re-queues nothing.
 * The client's retry at the cut (`clientRetriesAtCut`) becomes a new execution at the same
 * millisecond, unless the gateway fingerprint recognises it as the cancelled request and refuses it.
 * Throws a RangeError naming the field on bad numbers.
 */
export function simulateHalfFinished(input: HalfFinishedInput): HalfFinishedResult {
  const cancelAtMs = checkNumber('cancelAtMs', input.cancelAtMs, { min: 0 });
  const wholeChainMs = checkNumber('wholeChainMs', input.wholeChainMs ?? WHOLE_CHAIN_CANCEL_MS, { min: 0 });
  const transferred = checkNumber('transferredAtCut', input.transferredAtCut ?? TRANSFERRED_AT_CUT, { min: 0, max: 1 });
  const cancelDelay = checkNumber('upstreamCancelDelayMs', input.upstreamCancelDelayMs ?? UPSTREAM_CANCEL_DELAY_MS, { min: 0 });
  const requeues = checkBoolean('upstreamRequeuesOnDisconnect', input.upstreamRequeuesOnDisconnect ?? true);
  const retries = checkBoolean('clientRetriesAtCut', input.clientRetriesAtCut ?? true);
  const priority = checkBoolean('fix.priorityCancelChannel', input.fix?.priorityCancelChannel ?? false);
  const fingerprint = checkBoolean('fix.gatewayFingerprint', input.fix?.gatewayFingerprint ?? false);

  const arrivals = cancelArrivals(cancelAtMs, wholeChainMs);
  const atMcp = arrivals[1].atMs;
  const atUpstream = arrivals[2].atMs;
  const pct = `${Math.round(transferred * 1000) / 10} %`;
  const timeline: ChainEvent[] = [{ atMs: cancelAtMs, node: 'client', what: 'the user clicks stop; the client sends the cancel' }];
  const executions: ChainExecution[] = [];

  if (priority) {
    timeline.push({ atMs: atMcp, node: 'MCP server', what: 'the cancel arrives on the priority channel; forwarded as a cancel ahead of the close' });
    timeline.push({ atMs: atUpstream, node: 'upstream API', what: 'the cancel arrives: the request is marked cancelled, nothing is re-queued' });
    executions.push({ id: 'E1', cause: 'original', startAtMs: 0, stoppedAtMs: atUpstream + cancelDelay, transferredFraction: null });
    timeline.push({ atMs: atUpstream + cancelDelay, node: 'model cluster', what: `E1 stops (${cancelDelay} ms after the cancel reached the upstream)` });
  } else {
    timeline.push({ atMs: atMcp, node: 'MCP server', what: `the cancel arrives; the MCP server cuts the upstream connection with ${pct} of the response transferred` });
    executions.push({ id: 'E1', cause: 'original', startAtMs: 0, stoppedAtMs: atMcp, transferredFraction: transferred });
    if (requeues) {
      executions.push({ id: `E${executions.length + 1}`, cause: 'upstream-requeue', startAtMs: atMcp, stoppedAtMs: null, transferredFraction: null });
      timeline.push({ atMs: atMcp, node: 'upstream API', what: 'the connection dropped: the upstream silently re-queues the unfinished request' });
    }
  }
  if (retries) {
    timeline.push({ atMs: atMcp, node: 'client', what: 'in the same millisecond the retry logic sends a second identical request' });
    if (fingerprint) {
      timeline.push({ atMs: atMcp, node: 'gateway', what: 'the request fingerprint matches the cancelled request: the duplicate is refused' });
    } else {
      executions.push({ id: `E${executions.length + 1}`, cause: 'client-retry', startAtMs: atMcp, stoppedAtMs: null, transferredFraction: null });
      timeline.push({ atMs: atMcp, node: 'upstream API', what: 'the retry starts another execution of the same request' });
    }
  }
  timeline.sort((a, b) => a.atMs - b.atMs);

  const after = executions.filter((e) => e.startAtMs > cancelAtMs).length;
  const violations: string[] = [];
  if (executions.length > 1) violations.push('one-execution-per-action');
  if (after > 0) violations.push('no-work-after-cancel');
  const duplicate = executions.some((e) => e.cause !== 'original');
  const clientSees = !duplicate ? 'cancelled' : priority ? 'duplicate-result' : 'half-finished';
  return { arrivals, executions, executionsAfterCancel: after, clientSees, violations, timeline };
}
