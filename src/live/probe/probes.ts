/**
 * The probes `mcp-lab probe` runs against a server (issue 22). Each returns one finding with a
 * verdict (pass only with positive evidence; not observed when the server gave nothing to judge),
 * the severity of the spec's own word, and the evidence (the messages, with their times).
 *
 * Spec sources (both revisions, `docs/specification/<revision>/basic/…`): cancellation (receivers
 * SHOULD stop and not respond, MAY ignore unknown ids; invalid cancels SHOULD be ignored; 2026-07-28
 * transport pages: after a cancellation the server MUST NOT send further messages for the request),
 * progress (`progress` MUST increase), JSON-RPC 2.0 (the server MUST NOT reply to a notification;
 * one response per request).
 */
import { CHECKS } from '../../wire/transcript/checks';
import { finding, type ProbeFinding } from './findings';
import { isResponse, progressOf, RAW_ID_PREFIX, type ProbeSession, type WireEvent } from './session';

/** Bounds and knobs of a run (ms). */
export interface ProbeOptions {
  /** The long-running tool to call (null: only the safe probes). */
  tool: string | null;
  /** Its arguments. */
  args: Record<string, unknown>;
  /** Bound on any one request's answer (ms). Default 30000. */
  requestTimeoutMs: number;
  /** Cancel this long after the call when fewer than two progress notifications came (ms). Default 1000. */
  cancelAfterMs: number;
  /** The shortest listening window after a cancel (ms). Default 2000; the window is also ≥ 3× the progress interval. */
  minWindowMs: number;
  /** Messages this soon after a cancel were already on the wire (a race, not a bug) (ms). Default 100. */
  inFlightMs: number;
}

/** The defaults of `ProbeOptions` (without the tool). */
export const PROBE_DEFAULTS = { requestTimeoutMs: 30000, cancelAfterMs: 1000, minWindowMs: 2000, inFlightMs: 100 } as const;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const idKey = (id: unknown) => JSON.stringify(id) ?? 'undefined';

/** Is the server still answering? A `tools/list` (and a `ping` under 2025-11-25) within the bound; the answers' log events. */
async function alive(s: ProbeSession, timeoutMs: number): Promise<{ ok: boolean; why: string; events: WireEvent[] }> {
  const from = s.log.length;
  try {
    if (s.revision !== '2026-07-28') await s.client.ping({ timeout: timeoutMs });
    await s.client.listTools(undefined, { timeout: timeoutMs, cacheMode: 'bypass' });
    return { ok: true, why: '', events: s.log.slice(from).filter((e) => e.direction !== 'stderr') };
  } catch (err) {
    return { ok: false, why: s.closedReason ?? (err as Error).message, events: s.log.slice(from) };
  }
}

const cancelSeverity = (s: ProbeSession) =>
  s.revision === '2026-07-28'
    ? { severity: 'error' as const, word: 'MUST NOT (2026-07-28 transport pages: no further messages for a cancelled request)' }
    : { severity: 'warning' as const, word: 'SHOULD (2025-11-25 cancellation: stop processing, send no response)' };

/** Probe: the handshake negotiated a revision (and the asked one, when asked: `openSession` refuses any other). */
export function probeHandshake(s: ProbeSession, asked: string | null): ProbeFinding {
  const events = s.log.filter((e) => e.direction === 'c2s' || e.direction === 's2c').slice(0, 3);
  const known = s.revision === '2026-07-28' || s.revision === '2025-11-25';
  return finding(
    'handshake',
    known ? 'pass' : 'fail',
    'error',
    'MUST',
    known ? `negotiated ${s.revision} over ${s.transport}${asked ? ' (as asked)' : ''}` : `negotiated ${s.revision}, which the lab does not know`,
    events,
  );
}

/** Probe: a `notifications/cancelled` for an id the server never saw; then the server still answers. */
export async function probeUnknownCancel(s: ProbeSession, o: ProbeOptions): Promise<ProbeFinding> {
  const from = s.log.length;
  const reqId = 987654321;
  await s.sendRaw({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: reqId, reason: 'mcp-lab probe: an id never used' } });
  const a = await alive(s, Math.min(o.requestTimeoutMs, 10000));
  const events = s.log.slice(from).filter((e) => e.direction !== 'stderr');
  return a.ok
    ? finding('cancel-unknown-id', 'pass', 'warning', 'SHOULD ignore (MAY ignore an unknown id)', `cancel for unknown id ${reqId} ignored; the next request was answered`, events, [reqId])
    : finding('cancel-unknown-id', 'fail', 'warning', 'SHOULD ignore (MAY ignore an unknown id)', `after a cancel for unknown id ${reqId} the server stopped answering: ${a.why}`, events, [reqId]);
}

/** The three malformed cancels of the lesson (E2): no `jsonrpc`, a non-string `reason`, and one with an `id` (a request, then). */
export const MALFORMED_CANCELS: ReadonlyArray<{ label: string; frame: Record<string, unknown> }> = [
  { label: 'no jsonrpc', frame: { method: 'notifications/cancelled', params: { requestId: 987654322, reason: 'mcp-lab probe: no jsonrpc' } } },
  { label: 'non-string reason', frame: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 987654323, reason: 42 } } },
  { label: 'with an id', frame: { jsonrpc: '2.0', id: `${RAW_ID_PREFIX}malformed-1`, method: 'notifications/cancelled', params: { requestId: 987654324 } } },
];

/** Probe: each malformed cancel, then a request the server must still answer. */
export async function probeMalformedCancels(s: ProbeSession, o: ProbeOptions): Promise<ProbeFinding> {
  const from = s.log.length;
  const word = 'SHOULD ignore invalid cancellation notifications';
  const notes: string[] = [];
  for (const m of MALFORMED_CANCELS) {
    const at = s.log.length;
    try {
      await s.sendRaw(m.frame);
    } catch (err) {
      notes.push(`${m.label}: the transport refused it (${(err as Error).message})`);
    }
    const a = await alive(s, Math.min(o.requestTimeoutMs, 10000));
    if (!a.ok) return finding('malformed-cancels', 'fail', 'warning', word, `after a malformed cancel (${m.label}) the server stopped answering: ${a.why}`, s.log.slice(from), []);
    const answer = s.log.slice(at).find((e) => e.direction === 's2c' && isResponse(e.message) && (e.message?.id === null || e.message?.id === (m.frame as { id?: unknown }).id));
    if (answer) notes.push(`${m.label}: answered ${JSON.stringify((answer.message as { error?: unknown }).error ?? (answer.message as { result?: unknown }).result)}`);
  }
  return finding('malformed-cancels', 'pass', 'warning', word, `3 malformed cancels (${MALFORMED_CANCELS.map((m) => m.label).join(', ')}); the server answered the request after each${notes.length ? `; ${notes.join('; ')}` : ''}`, s.log.slice(from).filter((e) => e.direction !== 'stderr'));
}

/** Probe: `ping` sent as a notification (no id) must get no response; then the server still answers. */
export async function probePingNotification(s: ProbeSession, o: ProbeOptions): Promise<ProbeFinding> {
  const from = s.log.length;
  await s.sendRaw({ jsonrpc: '2.0', method: 'ping' });
  const reply = await s.waitFor((e) => e.direction === 's2c' && isResponse(e.message) && (e.message?.id === null || !('id' in (e.message ?? {}))), 500, from);
  const a = await alive(s, Math.min(o.requestTimeoutMs, 10000));
  const events = s.log.slice(from).filter((e) => e.direction !== 'stderr');
  if (reply) return finding('ping-notification', 'fail', 'error', 'MUST NOT reply to a notification (JSON-RPC 2.0)', `the server answered a notification (ping without an id) at ${reply.atMs} ms`, events);
  if (!a.ok) return finding('ping-notification', 'fail', 'warning', 'SHOULD ignore', `after a ping notification the server stopped answering: ${a.why}`, events);
  return finding('ping-notification', 'pass', 'error', 'MUST NOT reply to a notification (JSON-RPC 2.0)', 'no response within 500 ms to a ping without an id; the next request was answered', events);
}

/** What one cancelled call saw. */
interface CancelledCall {
  requestId: string | number | null;
  token: unknown;
  callEvent: WireEvent | null;
  /** The progress notifications for the call's token before the cancel. */
  progressBefore: WireEvent[];
  /** Progress for another token while the call ran. */
  foreignProgress: WireEvent[];
  /** Its result arrived before the cancel (nothing to cancel). */
  finishedFirst: WireEvent | null;
  cancelAtMs: number;
  cancelEvent: WireEvent | null;
  /** Messages for the request after the cancel (progress with its token, a response with its id). */
  after: WireEvent[];
  windowMs: number;
  outcome: string;
}

/**
 * Calls the tool with a progress token, cancels it in the transport's form for the revision
 * (the SDK's abort: stdio and 2025-11-25 HTTP send `notifications/cancelled`, 2026-07-28 HTTP closes
 * the request's stream), then listens for a window of at least `minWindowMs` and 3× the observed
 * progress interval. `waitForProgress`: cancel at the second progress (or after `cancelAfterMs`);
 * false: cancel right away (the rapid cycles).
 */
async function cancelledCall(s: ProbeSession, o: ProbeOptions, tool: string, waitForProgress: boolean, listen: boolean): Promise<CancelledCall> {
  const from = s.log.length;
  const ac = new AbortController();
  let outcome = 'pending';
  const call = s.client
    .callTool({ name: tool, arguments: o.args }, { signal: ac.signal, onprogress: () => {}, timeout: o.requestTimeoutMs })
    .then(
      () => (outcome = 'result'),
      (err: Error) => (outcome = `rejected: ${err.message}`),
    );
  const callEvent = await s.waitFor((e) => e.direction === 'c2s' && e.message?.method === 'tools/call', 2000, from);
  const requestId = (callEvent?.message?.id as string | number | undefined) ?? null;
  const token = (callEvent?.message?.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
  const mine = (e: WireEvent) => e.direction === 's2c' && ((isResponse(e.message) && idKey(e.message?.id) === idKey(requestId)) || (progressOf(e.message) !== null && idKey(progressOf(e.message)?.token) === idKey(token)));
  let finishedFirst: WireEvent | null = null;
  if (waitForProgress) {
    const deadline = s.now() + o.cancelAfterMs;
    for (;;) {
      const seen = s.log.slice(from).filter(mine);
      finishedFirst = seen.find((e) => isResponse(e.message)) ?? null;
      if (finishedFirst || seen.filter((e) => progressOf(e.message)).length >= 2 || s.now() >= deadline) break;
      await s.waitFor(mine, Math.max(1, deadline - s.now()), s.log.length);
    }
  } else {
    await sleep(10);
    finishedFirst = s.log.slice(from).find((e) => mine(e) && isResponse(e.message)) ?? null;
  }
  const beforeCancel = s.log.length;
  const cancelAtMs = s.now();
  if (!finishedFirst) {
    if (s.transport === 'http' && s.revision === '2026-07-28' && requestId !== null) s.mark('the probe closes the request\'s response stream (the 2026-07-28 cancellation)', { event: 'stream-close', requestId, cause: 'cancel' });
    ac.abort('mcp-lab probe: cancel');
  }
  const cancelEvent = finishedFirst ? null : await s.waitFor((e) => e.direction === 'c2s' && e.message?.method === 'notifications/cancelled', 200, beforeCancel);
  const progressBefore = s.log.slice(from, beforeCancel).filter((e) => mine(e) && progressOf(e.message) !== null);
  const gaps = progressBefore.slice(1).map((e, i) => e.atMs - progressBefore[i].atMs);
  const interval = gaps.length ? gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] : 0;
  const windowMs = Math.max(o.minWindowMs, 3 * interval);
  if (listen && !finishedFirst) await sleep(windowMs);
  await Promise.race([call, sleep(500)]);
  const foreignProgress = s.log.slice(from, beforeCancel).filter((e) => e.direction === 's2c' && progressOf(e.message) !== null && !mine(e));
  return {
    requestId,
    token,
    callEvent,
    progressBefore,
    foreignProgress,
    finishedFirst,
    cancelAtMs,
    cancelEvent,
    after: s.log.slice(beforeCancel).filter(mine),
    windowMs,
    outcome,
  };
}

/** One call's progress, for the monotonic probe: the token it carried and every progress notification for it, plus progress for other tokens while it ran. */
export interface ProgressSequence {
  requestId: string | number | null;
  token: unknown;
  events: WireEvent[];
  foreign: WireEvent[];
}

/** What `probeCancelledCall` found: the cancel-stops-work finding and the call's progress. */
export interface CancelledCallResult {
  finding: ProbeFinding;
  progress: ProgressSequence;
}

/** The cancel probe over one long call: every message for the request after the cancel, with its delay. */
export async function probeCancelledCall(s: ProbeSession, o: ProbeOptions, tool: string): Promise<CancelledCallResult> {
  const c = await cancelledCall(s, o, tool, true, true);
  const ids = c.requestId === null ? [] : [c.requestId];
  const base = [c.callEvent, ...c.progressBefore, c.cancelEvent].filter((e): e is WireEvent => e !== null);
  const { severity, word } = cancelSeverity(s);
  const cancelForm = s.transport === 'http' && s.revision === '2026-07-28' ? "closed the request's response stream" : 'sent notifications/cancelled';
  const progress: ProgressSequence = { requestId: c.requestId, token: c.token, events: [...c.progressBefore, ...c.after.filter((e) => progressOf(e.message))], foreign: c.foreignProgress };
  if (c.finishedFirst) {
    return { progress, finding: finding('cancel-stops-work', 'not-observed', severity, word, `the call finished at ${c.finishedFirst.atMs} ms, before the probe could cancel it — give --args that make it run longer`, [...base, c.finishedFirst], ids) };
  }
  const late = c.after.filter((e) => e.atMs - c.cancelAtMs > o.inFlightMs);
  const what = (e: WireEvent) => `${progressOf(e.message) ? `progress ${JSON.stringify(progressOf(e.message)?.progress)}` : 'error' in (e.message ?? {}) ? 'an error' : 'the result'} +${Math.round(e.atMs - c.cancelAtMs)} ms`;
  if (late.length > 0) {
    const responses = late.filter((e) => isResponse(e.message));
    const shown = [...late.filter((e) => !isResponse(e.message)).slice(0, 4), ...responses].map(what);
    return {
      progress,
      finding: finding('cancel-stops-work', 'fail', severity, word, `after the probe ${cancelForm} at ${c.cancelAtMs} ms (listening ${c.windowMs} ms), ${late.length} message${late.length === 1 ? '' : 's'} for request ${idKey(c.requestId)} arrived: ${shown.join(', ')}${late.length > shown.length ? ` (and ${late.length - shown.length} more progress)` : ''}`, [...base, ...c.after], ids, c.cancelAtMs),
    };
  }
  if (s.transport === 'http' && s.revision === '2026-07-28') {
    return { progress, finding: finding('cancel-stops-work', 'not-observed', severity, word, `the probe ${cancelForm} at ${c.cancelAtMs} ms: nothing for the request can arrive on a closed stream, so whether the server stopped its work is not visible from the client (survives-cancel shows it still serves)`, base, ids, c.cancelAtMs) };
  }
  return { progress, finding: finding('cancel-stops-work', 'pass', severity, word, `the probe ${cancelForm} at ${c.cancelAtMs} ms and listened ${c.windowMs} ms: no progress, result or error for request ${idKey(c.requestId)} after it${c.after.length ? ` (${c.after.length} within ${o.inFlightMs} ms, already in flight)` : ''}`, [...base, ...c.after], ids, c.cancelAtMs) };
}

/** Probe: progress strictly increasing and carrying the call's token, over the cancelled call and the second call (null: a call that did not run). */
export function progressFinding(sequences: (ProgressSequence | null)[]): ProbeFinding {
  const word = 'MUST increase with each notification';
  const runs = sequences.filter((q): q is ProgressSequence => q !== null);
  const ids = runs.map((q) => q.requestId).filter((id): id is string | number => id !== null);
  for (const q of runs) {
    if (q.foreign.length > 0) {
      return finding('progress-monotonic', 'fail', CHECKS['progress-unknown-token'].severity, "MUST carry the request's progressToken", `progress for token ${JSON.stringify(progressOf(q.foreign[0].message)?.token)} while the only call in flight carried ${JSON.stringify(q.token)}`, [...q.foreign, ...q.events], ids);
    }
    const p = q.events;
    for (let i = 1; i < p.length; i++) {
      const a = Number(progressOf(p[i - 1].message)?.progress);
      const b = Number(progressOf(p[i].message)?.progress);
      if (!(b > a)) return finding('progress-monotonic', 'fail', 'error', word, `progress for token ${JSON.stringify(q.token)} went ${a} → ${b} (at ${p[i - 1].atMs} and ${p[i].atMs} ms)`, p.slice(0, i + 1), ids);
    }
  }
  const total = runs.reduce((n, q) => n + q.events.length, 0);
  const longest = Math.max(0, ...runs.map((q) => q.events.length));
  if (longest < 2) return finding('progress-monotonic', 'not-observed', 'error', word, `${total === 0 ? 'no progress notification' : 'never two progress notifications for one call'} — nothing to compare`, runs.flatMap((q) => q.events), ids);
  const seen = runs.filter((q) => q.events.length).map((q) => `token ${JSON.stringify(q.token)}: ${q.events.map((e) => progressOf(e.message)?.progress).join(', ')}`);
  return finding('progress-monotonic', 'pass', 'error', word, `${seen.join('; ')} — strictly increasing`, runs.flatMap((q) => q.events), ids);
}

/** What `probeSurvives` found: its finding and the second call's progress. */
export interface SecondCallResult {
  finding: ProbeFinding;
  progress: ProgressSequence | null;
}

/** Probe: a second call after the cancel is answered (the server survived the cancel). */
export async function probeSurvives(s: ProbeSession, o: ProbeOptions, tool: string): Promise<SecondCallResult> {
  const from = s.log.length;
  const word = 'SHOULD (a cancel only stops the one request)';
  const sequence = (): ProgressSequence | null => {
    const call = s.log.slice(from).find((e) => e.direction === 'c2s' && e.message?.method === 'tools/call');
    if (!call) return null;
    const token = (call.message?.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    const progress = s.log.slice(from).filter((e) => e.direction === 's2c' && progressOf(e.message) !== null);
    return {
      requestId: (call.message?.id as string | number | undefined) ?? null,
      token,
      events: progress.filter((e) => idKey(progressOf(e.message)?.token) === idKey(token)),
      foreign: progress.filter((e) => idKey(progressOf(e.message)?.token) !== idKey(token)),
    };
  };
  try {
    await s.client.callTool({ name: tool, arguments: o.args }, { timeout: o.requestTimeoutMs, onprogress: () => {}, resetTimeoutOnProgress: false });
    const events = s.log.slice(from).filter((e) => e.direction !== 'stderr' && (e.direction !== 's2c' || isResponse(e.message)));
    return { progress: sequence(), finding: finding('survives-cancel', 'pass', 'warning', word, `a second tools/call ${tool} after the cancel was answered at ${events.at(-1)?.atMs ?? s.now()} ms`, events) };
  } catch (err) {
    return { progress: sequence(), finding: finding('survives-cancel', 'fail', 'warning', word, `a second tools/call ${tool} after the cancel was not answered: ${s.closedReason ?? (err as Error).message}`, s.log.slice(from)) };
  }
}

/** Probe: five calls each cancelled 10 ms after it was sent; then nothing late for any of them and the server still answers. */
export async function probeRapidCycles(s: ProbeSession, o: ProbeOptions, tool: string): Promise<ProbeFinding> {
  const from = s.log.length;
  const calls: CancelledCall[] = [];
  for (let i = 0; i < 5; i++) calls.push(await cancelledCall(s, o, tool, false, false));
  await sleep(Math.max(...calls.map((c) => c.windowMs)));
  const { severity, word } = cancelSeverity(s);
  const ids = calls.map((c) => c.requestId).filter((id): id is string | number => id !== null);
  const a = await alive(s, Math.min(o.requestTimeoutMs, 10000));
  const late: WireEvent[] = [];
  for (const c of calls) {
    if (c.finishedFirst) continue;
    const mine = (e: WireEvent) => e.direction === 's2c' && ((isResponse(e.message) && idKey(e.message?.id) === idKey(c.requestId)) || (progressOf(e.message) !== null && idKey(progressOf(e.message)?.token) === idKey(c.token)));
    late.push(...s.log.slice(from).filter((e) => mine(e) && e.atMs - c.cancelAtMs > o.inFlightMs && e.atMs > c.cancelAtMs));
  }
  const sent = s.log.slice(from).filter((e) => e.direction === 'c2s');
  if (!a.ok) return finding('rapid-cancel-cycles', 'fail', 'warning', 'SHOULD (a cancel only stops the one request)', `after 5 rapid call-and-cancel cycles the server stopped answering: ${a.why}`, [...sent, ...a.events], ids);
  if (late.length) {
    return finding('rapid-cancel-cycles', 'fail', severity, word, `5 rapid cycles: ${late.length} message${late.length === 1 ? '' : 's'} for cancelled requests arrived after their cancel (first at ${late[0].atMs} ms, for ${JSON.stringify(late[0].message?.id ?? progressOf(late[0].message)?.token)})`, [...sent.filter((e) => e.message?.method === 'notifications/cancelled').slice(0, 5), ...late], ids);
  }
  const finished = calls.filter((c) => c.finishedFirst).length;
  return finding('rapid-cancel-cycles', 'pass', severity, word, `5 rapid call-and-cancel cycles${finished ? ` (${finished} finished before its cancel)` : ''}: nothing late, and the server answered the next request`, [...sent, ...a.events], ids);
}

/** The name of the tool's idempotency-key argument, if its input schema has one. */
export function idempotencyArgument(inputSchema: unknown): string | null {
  const props = (inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return Object.keys(props).find((k) => /^(idempotencyKey|idempotency_key|idempotency-key)$/i.test(k)) ?? null;
}

/** The execution count a result reports ("executions: N" in its text, or `executions` in structured content), or null. */
export function receiptOf(result: unknown): number | null {
  const r = result as { structuredContent?: Record<string, unknown>; content?: { type?: string; text?: string }[] } | undefined;
  if (typeof r?.structuredContent?.executions === 'number') return r.structuredContent.executions;
  for (const c of r?.content ?? []) {
    const m = c.type === 'text' ? /\bexecutions?\W+(\d+)/i.exec(c.text ?? '') : null;
    if (m) return Number(m[1]);
  }
  return null;
}

/** Probe: the same call twice with one idempotency key, where the tool takes one; one execution when the server reports receipts. */
export async function probeIdempotency(s: ProbeSession, o: ProbeOptions, tool: string): Promise<ProbeFinding> {
  const word = 'lab rule (at most once per key; the spec has no idempotency key)';
  let schema: unknown;
  try {
    schema = (await s.client.listTools(undefined, { timeout: 10000, cacheMode: 'bypass' })).tools.find((t) => t.name === tool)?.inputSchema;
  } catch (err) {
    return finding('idempotency-once', 'not-observed', 'warning', word, `tools/list failed: ${(err as Error).message}`, []);
  }
  const arg = idempotencyArgument(schema);
  if (!arg) return finding('idempotency-once', 'not-applicable', 'warning', word, `${tool} takes no idempotency key argument`, []);
  const from = s.log.length;
  const key = `mcp-lab-probe-${Date.now().toString(36)}`;
  const args = { ...o.args, [arg]: key };
  try {
    const first = await s.client.callTool({ name: tool, arguments: args }, { timeout: o.requestTimeoutMs });
    const second = await s.client.callTool({ name: tool, arguments: args }, { timeout: o.requestTimeoutMs });
    const events = s.log.slice(from).filter((e) => e.direction !== 'stderr' && (e.direction !== 's2c' || isResponse(e.message)));
    const [a, b] = [receiptOf(first), receiptOf(second)];
    if (a === null || b === null) return finding('idempotency-once', 'not-observed', 'warning', word, `two calls with ${arg}=${key} were answered, but the results report no execution count to compare`, events);
    if (b > a) return finding('idempotency-once', 'fail', 'warning', word, `two calls with ${arg}=${key}: the receipts count ${a} then ${b} executions — the key did not deduplicate`, events);
    return finding('idempotency-once', 'pass', 'warning', word, `two calls with ${arg}=${key}: the receipts count ${a} then ${b} — one execution`, events);
  } catch (err) {
    return finding('idempotency-once', 'not-observed', 'warning', word, `a keyed call failed: ${(err as Error).message}`, s.log.slice(from));
  }
}

/** Over the whole session: no request id answered twice, and no response for an id the probe never sent. */
export function probeOneResponse(s: ProbeSession): ProbeFinding {
  const word = 'MUST (JSON-RPC 2.0: one response per request)';
  const sent = new Set(s.log.filter((e) => e.direction === 'c2s' && e.message !== undefined && 'id' in e.message && 'method' in e.message).map((e) => idKey(e.message?.id)));
  const seen = new Map<string, WireEvent>();
  for (const e of s.log) {
    if (e.direction !== 's2c' || !isResponse(e.message) || e.message?.id === null || e.message?.id === undefined) continue;
    const k = idKey(e.message.id);
    if (!sent.has(k)) return finding('one-response-per-request', 'fail', 'error', word, `a response at ${e.atMs} ms for id ${k}, which the probe never sent`, [e], [e.message.id as string | number]);
    const first = seen.get(k);
    if (first) return finding('one-response-per-request', 'fail', 'error', word, `request ${k} was answered twice (at ${first.atMs} and ${e.atMs} ms)`, [first, e], [e.message.id as string | number]);
    seen.set(k, e);
  }
  return finding('one-response-per-request', seen.size ? 'pass' : 'not-observed', 'error', word, `${seen.size} responses, each for a different request id the probe sent`, []);
}

/**
 * Over the whole session: no progress for a token after its request's response (progress:
 * "notifications MUST stop after completion"). Cancelled requests are cancel-stops-work's to judge (a
 * 2026-07-28 HTTP cancel closes the stream, so nothing for it arrives here);
 * progress within `inFlightMs` of the response counts as already on the wire.
 */
export function probeProgressStops(s: ProbeSession, inFlightMs: number): ProbeFinding {
  const word = 'MUST stop after completion';
  // stdio is one ordered pipe: a progress read after the response was written after it, so no in-flight allowance.
  const allowanceMs = s.transport === 'stdio' ? 0 : inFlightMs;
  const tokenOf = new Map<string, string>(); // request id → its progress token
  const cancelled = new Set<string>();
  const doneAt = new Map<string, WireEvent>(); // token → the response that completed its request
  let completedWithProgress = 0;
  const progressed = new Set<string>();
  for (const e of s.log) {
    const m = e.message;
    if (e.direction === 'c2s' && m && 'id' in m && typeof m.method === 'string') {
      const token = (m.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
      if (token !== undefined) tokenOf.set(idKey(m.id), idKey(token));
    } else if (e.direction === 'c2s' && m?.method === 'notifications/cancelled') {
      cancelled.add(idKey((m.params as { requestId?: unknown } | undefined)?.requestId));
    } else if (e.direction === 's2c' && isResponse(m)) {
      const token = tokenOf.get(idKey(m?.id));
      if (token !== undefined && !cancelled.has(idKey(m?.id))) {
        doneAt.set(token, e);
        if (progressed.has(token)) completedWithProgress++;
      }
    } else if (e.direction === 's2c' && progressOf(m)) {
      const token = idKey(progressOf(m)?.token);
      progressed.add(token);
      const done = doneAt.get(token);
      if (done && (allowanceMs === 0 || e.atMs - done.atMs > allowanceMs)) {
        return finding('progress-stops-at-result', 'fail', 'error', word, `progress for token ${token} at ${e.atMs} ms, ${Math.round(e.atMs - done.atMs)} ms after its request's response`, [done, e], [done.message?.id as string | number]);
      }
    }
  }
  return completedWithProgress
    ? finding('progress-stops-at-result', 'pass', 'error', word, `${completedWithProgress} completed call${completedWithProgress === 1 ? '' : 's'} with progress: none after the response, to the end of the session`, [])
    : finding('progress-stops-at-result', 'not-observed', 'error', word, 'no call with progress completed', []);
}
