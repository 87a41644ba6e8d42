/**
 * The one fault vocabulary (DESIGN.md, round 3): every failure the labs teach, named once, with
 * the same meaning in a scenario (the lab's bug switch that reproduces it), in `mcp-lab serve`
 * (a per-call fault and a tool of its own), in `mcp-lab proxy` (applied between client and
 * server) and in the chaos swarm (the swarm's kinds map onto these names: `CHAOS_TO_LIVE`).
 *
 * Pure data: no clock, no I/O. The live programs (`src/live/`) read it to print `--help`, to
 * name the fault that fired in a recording, and to point each finding at the built-in scenario
 * that teaches it.
 */
import type { FaultKind } from './chaos/faults';
import type { LabId } from './labIds';

/** Every live fault's name, in the order `serve --help` lists them. */
export const LIVE_FAULT_NAMES = [
  'ignore-cancel',
  'late-result',
  'progress-after-result',
  'progress-storm',
  'no-progress',
  'duplicate-response',
  'response-for-unknown-id',
  'stream-cut',
  'no-first-byte',
  'keepalive-off',
  'big-result',
  'crash-on-cancel',
  'in-progress-409',
  'naive-ledger',
] as const;

/** A live fault's name (`--fault NAME`, the `fault` field of a recorded fault mark). */
export type LiveFaultName = (typeof LIVE_FAULT_NAMES)[number];

/** Where a fault can act: some need a Streamable HTTP response stream, one needs a stdio pipe. */
export type FaultTransport = 'stdio' | 'http';

/** The built-in scenario that teaches a fault: lab, scenario id, the bug switch (config) that turns it on, the invariant it breaks. */
export interface FaultLesson {
  lab: LabId;
  /** Built-in scenario id (`public/scenarios/<lab>/<id>*.json`). */
  scenario: string;
  /** The scenario config override that makes the lab's model behave as the faulty server does, as dotted config paths (`policy.respondAfterCancel`); empty when the built-in already does. */
  bugSwitch: Record<string, boolean | string | number | null>;
  /** The named invariant the fault breaks in that lab. */
  invariant: string;
}

/** One fault: what the server does, what a correct client does about it, what a broken client does. */
export interface LiveFault {
  name: LiveFaultName;
  /** One line: what the misbehaving server (or proxy) does. */
  does: string;
  /** What a correct client does when it meets it (the rule, with its source). */
  clientShould: string;
  /** What a broken client is seen to do. */
  brokenClient: string;
  /** The transports it can act on. */
  transports: readonly FaultTransport[];
  /** The built-in scenario that teaches it; null when no built-in does yet. */
  lesson: FaultLesson | null;
}

/**
 * Every live fault. Sources: the lesson's races / ledger / flow / resilience scenarios, and the
 * specification's cancellation, progress and transport pages (2025-11-25, 2026-07-28).
 */
export const LIVE_FAULTS: Readonly<Record<LiveFaultName, LiveFault>> = {
  'ignore-cancel': {
    name: 'ignore-cancel',
    does: 'keeps working after the cancellation and sends the result anyway',
    clientShould: 'ignore a response that arrives after it cancelled the request (cancellation: "the sender of the cancellation SHOULD ignore any response to this request that might arrive")',
    brokenClient: 'takes the late result as the call\'s outcome, or errors on a response for a settled id',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'A', bugSwitch: { 'policy.respondAfterCancel': true }, invariant: 'no-response-after-cancel' },
  },
  'late-result': {
    name: 'late-result',
    does: 'answers only after the client\'s timeout has passed (default 75 s)',
    clientShould: 'give up at its maximum timeout, signal the cancellation, and drop the result when it comes',
    brokenClient: 'waits forever (no maximum), or reports the late result as a success after reporting a timeout',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'F3', bugSwitch: {}, invariant: 'cancelled-never-succeeds' },
  },
  'progress-after-result': {
    name: 'progress-after-result',
    does: 'sends progress notifications for a request after its result',
    clientShould: 'ignore progress for a token whose request has finished (progress: "progress notifications MUST stop after completion")',
    brokenClient: 'restarts a timer for a finished call, or tears the connection down over a stray progress',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'I2', bugSwitch: { 'policy.progressAfterResult': true }, invariant: 'progress-stops-after-result' },
  },
  'progress-storm': {
    name: 'progress-storm',
    does: 'sends progress every few milliseconds and never finishes',
    clientShould: 'still enforce its maximum timeout: progress resets only the idle timeout',
    brokenClient: 'lets progress push the maximum out, so the call never ends',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'F2', bugSwitch: {}, invariant: 'maximum-enforced' },
  },
  'no-progress': {
    name: 'no-progress',
    does: 'stays silent for a long time (no progress), then answers',
    clientShould: 'fail the call at its idle timeout when nothing arrives, and send the cancellation',
    brokenClient: 'has no idle timeout and waits the whole time, or has only an idle timeout and no maximum',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'C', bugSwitch: {}, invariant: 'maximum-enforced' },
  },
  'duplicate-response': {
    name: 'duplicate-response',
    does: 'sends two responses for one request id',
    clientShould: 'take the first response and ignore the second (JSON-RPC: one response per request)',
    brokenClient: 'settles the call twice, or errors on the second response and drops the connection',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'I6', bugSwitch: { 'policy.duplicateResponseOnCancel': true }, invariant: 'one-response-per-request' },
  },
  'response-for-unknown-id': {
    name: 'response-for-unknown-id',
    does: 'sends a response for an id the client never used, beside the real one',
    clientShould: 'ignore a response for an unknown id and keep every other call going',
    brokenClient: 'takes it as a protocol error and reconnects, failing every call in flight',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'I4', bugSwitch: {}, invariant: 'late-response-harmless' },
  },
  'stream-cut': {
    name: 'stream-cut',
    does: 'ends the request\'s SSE response stream mid-call, before the result',
    clientShould: 'under 2026-07-28 treat the request as lost (no resumption) and re-issue it only if it is safe to repeat (an idempotency key)',
    brokenClient: 'waits forever for a result that cannot come, or repeats a side effect without a key',
    transports: ['http'],
    lesson: { lab: 'races', scenario: 'R1', bugSwitch: {}, invariant: 'side-effect-once' },
  },
  'no-first-byte': {
    name: 'no-first-byte',
    does: 'accepts the request but sends no byte of the response (no headers, no event) for a long time',
    clientShould: 'bound the wait for the first byte with its own timeout, then cancel',
    brokenClient: 'hangs with no timeout because nothing ever started',
    transports: ['http'],
    lesson: { lab: 'races', scenario: 'F3', bugSwitch: {}, invariant: 'abandon-signals-server' },
  },
  'keepalive-off': {
    name: 'keepalive-off',
    does: 'sends no SSE keep-alive comments on a long, quiet response stream',
    clientShould: 'not take keep-alives as progress; an intermediary without them may cut the stream at its idle timeout',
    brokenClient: 'resets its idle timer on a keep-alive comment, or has no idle bound at all',
    transports: ['http'],
    lesson: { lab: 'flow', scenario: 'P2', bugSwitch: { keepAliveIntervalMs: null }, invariant: 'keepalive-not-progress' },
  },
  'big-result': {
    name: 'big-result',
    does: 'answers with a result of N bytes on one stdio line (default 5 MiB)',
    clientShould: 'read complete lines of any length its limit allows, and reject an oversize message alone, deterministically',
    brokenClient: 'checks its size limit on a partial read, or never processes the line',
    transports: ['stdio', 'http'],
    lesson: null,
  },
  'crash-on-cancel': {
    name: 'crash-on-cancel',
    does: 'exits the process when a cancellation arrives',
    clientShould: 'fail the calls in flight with a clear error, and reconnect only under its own policy',
    brokenClient: 'hangs on calls that can no longer be answered',
    transports: ['stdio', 'http'],
    lesson: { lab: 'races', scenario: 'I6', bugSwitch: { 'policy.crashOnCancelInWriteWindow': true }, invariant: 'late-cancel-harmless' },
  },
  'in-progress-409': {
    name: 'in-progress-409',
    does: 'answers a second call with the same idempotency key, while the first runs, with an "in progress" error (409 in the tool\'s result)',
    clientShould: 'wait and retry later with the same key, never with a new one',
    brokenClient: 'retries under a new key and charges twice',
    transports: ['stdio', 'http'],
    lesson: { lab: 'ledger', scenario: 'G', bugSwitch: {}, invariant: 'in-progress-is-not-final' },
  },
  'naive-ledger': {
    name: 'naive-ledger',
    does: 'the charge tool checks the idempotency key, then writes, in two steps (check-then-act), so two concurrent calls both charge',
    clientShould: 'nothing it can do alone: the server must claim the key atomically (the atomic ledger does)',
    brokenClient: 'retries on a timeout and sees two charges for one key',
    transports: ['stdio', 'http'],
    lesson: { lab: 'ledger', scenario: 'B', bugSwitch: {}, invariant: 'at-most-once' },
  },
};

/**
 * How the chaos swarm's kinds (the postmortem's chaos list, `src/sim/chaos/faults.ts`) read as
 * live faults, for `serve --chaos SEED`: a drawn kind becomes this live fault on the call.
 */
export const CHAOS_TO_LIVE: Readonly<Record<FaultKind, LiveFaultName>> = {
  'upstream-latency': 'late-result',
  'connection-reset': 'stream-cut',
  'forged-cancel': 'ignore-cancel',
  partition: 'no-first-byte',
  'quota-exhausted': 'in-progress-409',
  'duplicate-dispatch': 'duplicate-response',
};

/** True when `name` is a live fault's name. */
export function isLiveFaultName(name: string): name is LiveFaultName {
  return (LIVE_FAULT_NAMES as readonly string[]).includes(name);
}

/**
 * Parses `--fault NAME[,NAME…]`: the names in order, without repeats.
 * @throws Error naming the unknown fault and listing the known ones.
 */
export function parseFaultList(text: string): LiveFaultName[] {
  const names: LiveFaultName[] = [];
  for (const part of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    if (!isLiveFaultName(part)) throw new Error(`unknown fault ${JSON.stringify(part)} — the faults are ${LIVE_FAULT_NAMES.join(', ')}`);
    if (!names.includes(part)) names.push(part);
  }
  return names;
}
