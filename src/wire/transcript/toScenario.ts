import type { Json, Scenario } from '../../sim/types';
import type { RequestId } from '../../sim/mcp';
import { parseScenario } from '../../sim/scenario';
import { RACES_SCHEMAS, racesLengthProblem } from '../../sim/races/schema';
import type { MessageEntry, MetaEntry, Transcript } from './types';

/**
 * "Open as a scenario": a transcript (or one selected call of it) → an editable races scenario
 * with the same times and ids, validated by the races parser, so the learner can drag the cancel,
 * switch the client's policy and see the other outcome.
 *
 * Mapping (client → server requests only; the races lab models the client's calls):
 * - `tools/call` / `subscriptions/listen` request → `start` (id, tool, progressToken; when the
 *   transcript shows a client-side timeout at T, `maxTimeoutMs` = T − start, so the replay times out
 *   at the same millisecond; `options.idleTimeoutMs`/`maxTimeoutMs` override; `cancellable: false`
 *   when its response came later than its cancellation could reach the server and return);
 * - client `notifications/cancelled` for a known call → `cancel` (with `malformed` when it has an `id`, lacks
 *   `jsonrpc` "2.0" or has a non-string `reason`); one with a bad `requestId` or an unknown call → `inject`;
 * - a stream close with cause `cancel` and no notification → `cancel`; cause `network` → `disconnect`;
 * - server progress for a call's token → `progress`; its result → `complete` (first text block as
 *   text, `isError`); its error → `error`; a server `notifications/cancelled` → `server-cancel`.
 * Server messages are placed at their observed time minus `latencyMs.serverToClient` (default 0:
 * the same times as the transcript). Other messages (initialize, tools/list, …) are listed in `dropped`.
 */

/** The client requests "Open as a scenario" turns into races calls (`start` events); every other method is listed in `dropped`. */
export const SCENARIO_CALL_METHODS: readonly string[] = ['tools/call', 'subscriptions/listen'];

/** Options of `transcriptToScenario`. */
export interface ToScenarioOptions {
  /** Only this call (its start, cancels, progress, response, stream close). */
  requestId?: RequestId;
  /** Scenario id (default `imported`, or `imported-<id>` for one call). */
  id?: string;
  title?: string;
  /** One-way latencies for the scenario config (default 0 both ways: events at the transcript's own times). */
  latencyMs?: { clientToServer: number; serverToClient: number };
  /** Override every start's timeouts (ms). */
  idleTimeoutMs?: number | null;
  maxTimeoutMs?: number | null;
  /** Shift times so the first event is at 0 ms (default false: the transcript's own times). */
  shiftToZero?: boolean;
}

/** The scenario (validated), or the parser's errors; `dropped` lists the entries not carried over, with why. */
export type ToScenarioResult =
  | { ok: true; scenario: Scenario; dropped: { index: number; reason: string }[]; pageProblem: string | null }
  | { ok: false; errors: string[]; dropped: { index: number; reason: string }[] };

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
const validId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
const key = (v: unknown) => JSON.stringify(v);
const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** Converts `t` (or one call of it) into a races scenario; see the module comment for the mapping. Never throws. */
export function transcriptToScenario(t: Transcript, options: ToScenarioOptions = {}): ToScenarioResult {
  const latency = options.latencyMs ?? { clientToServer: 0, serverToClient: 0 };
  const dropped: { index: number; reason: string }[] = [];
  const events: Record<string, Json>[] = [];
  const startById = new Map<string, Record<string, Json>>();
  const tokenToId = new Map<string, RequestId>();
  const cancelledById = new Set<string>();
  const only = options.requestId === undefined ? null : key(options.requestId);
  let transport: 'stdio' | 'streamable-http' = 'stdio';
  let n = 0;
  const evId = (e: { index: number }, kind: string) => `${kind}-${e.index}-${++n}`.slice(0, 64);
  const push = (e: { index: number; atMs: number }, fields: Record<string, Json>, server: boolean) => {
    const at = Math.max(0, e.atMs - (server ? latency.serverToClient : 0));
    events.push({ id: evId(e, fields.kind as string), at, ...fields });
  };
  // Issue 11 (2026-07-28): an MRTR retry (a tools/call with inputResponses) replays as `input-response`
  // of the last call answered with InputRequiredResult; the tools/call right after a dropped stream
  // replays as the disconnect's re-issue (`reissueId`).
  const awaitingInput: RequestId[] = [];
  let pendingReissue: Record<string, Json> | null = null;
  const timeouts = new Map<string, number>();
  for (const e of t.entries) if (e.type === 'meta' && e.kind === 'client-timeout' && e.requestId !== undefined) timeouts.set(key(e.requestId), e.atMs);
  // A call whose response came after its cancellation could have reached the server and come back: the server ignored the cancel (work it cannot stop).
  const firstCancel = new Map<string, number>();
  const ignoredCancel = new Set<string>();
  for (const e of t.entries) {
    if (e.type === 'meta' && e.kind === 'stream-close' && e.cause === 'cancel' && e.requestId !== undefined && !firstCancel.has(key(e.requestId))) firstCancel.set(key(e.requestId), e.atMs);
    if (e.type !== 'message' || !isObject(e.message)) continue;
    const m = e.message;
    const p = isObject(m.params) ? m.params : {};
    if (e.direction === 'c2s' && m.method === 'notifications/cancelled' && validId(p.requestId) && !firstCancel.has(key(p.requestId))) firstCancel.set(key(p.requestId), e.atMs);
    if (e.direction === 's2c' && e.kind === 'response' && validId(m.id)) {
      const c = firstCancel.get(key(m.id));
      if (c !== undefined && e.atMs > c + latency.clientToServer + latency.serverToClient) ignoredCancel.add(key(m.id));
    }
  }

  for (const e of t.entries) {
    if (e.type === 'stderr') continue;
    if (e.type === 'meta') {
      handleMeta(e);
      continue;
    }
    const m = isObject(e.message) ? e.message : null;
    if (e.transport === 'streamable-http') transport = 'streamable-http';
    if (!m) {
      dropped.push({ index: e.index, reason: 'not a JSON-RPC object' });
      continue;
    }
    const params = isObject(m.params) ? m.params : {};
    if (e.direction === 'c2s') handleClient(e, m, params);
    else handleServer(e, m, params);
  }

  function handleMeta(e: MetaEntry) {
    if (e.kind !== 'stream-close' || e.requestId === undefined) return;
    const k = key(e.requestId);
    if (!startById.has(k) || (only !== null && k !== only)) return;
    transport = 'streamable-http';
    const timeoutAt = timeouts.get(k);
    if (timeoutAt !== undefined && e.atMs >= timeoutAt && e.cause !== 'network') {
      dropped.push({ index: e.index, reason: "the stream close the client's timeout sends (the replay's maximum timeout sends it)" });
      return;
    }
    if (e.cause === 'network') {
      const drop: Record<string, Json> = { actor: 'client', kind: 'disconnect', requestId: e.requestId };
      push(e, drop, false);
      if (t.revision === '2026-07-28') pendingReissue = events[events.length - 1];
    }
    else if (!cancelledById.has(k)) {
      cancelledById.add(k);
      push(e, { actor: 'client', kind: 'cancel', requestId: e.requestId, reason: 'stream closed' }, false);
    }
  }

  function handleClient(e: MessageEntry, m: Record<string, Json>, params: Record<string, Json>) {
    if (e.kind === 'request' && typeof m.method === 'string' && SCENARIO_CALL_METHODS.includes(m.method) && validId(m.id)) {
      const k = key(m.id);
      if (only !== null && k !== only) return;
      if (m.method === 'tools/call' && only === null && pendingReissue !== null) {
        pendingReissue.reissueId = m.id;
        pendingReissue = null;
        startById.set(k, { actor: 'client', kind: 'start', requestId: m.id });
        return;
      }
      if (m.method === 'tools/call' && only === null && isObject(params.inputResponses) && awaitingInput.length > 0) {
        const answered = awaitingInput.shift() as RequestId;
        const first = Object.values(params.inputResponses)[0];
        const action = isObject(first) && (first.action === 'decline' || first.action === 'cancel') ? first.action : 'accept';
        push(e, { actor: 'client', kind: 'input-response', requestId: answered, newRequestId: m.id, action }, false);
        startById.set(k, { actor: 'client', kind: 'start', requestId: m.id });
        return;
      }
      const meta = isObject(params._meta) ? params._meta : {};
      const start: Record<string, Json> = { actor: 'client', kind: 'start', requestId: m.id, method: m.method };
      if (m.method === 'tools/call') start.tool = clip(typeof params.name === 'string' && params.name !== '' ? params.name : 'tool', 64);
      if (meta.progressToken !== undefined) {
        start.progressToken = meta.progressToken;
        if (validId(meta.progressToken)) tokenToId.set(key(meta.progressToken), m.id);
      }
      const timeoutAt = timeouts.get(k);
      let max: number | null = timeoutAt !== undefined && timeoutAt > e.atMs ? timeoutAt - e.atMs : null;
      let idle: number | null = null;
      if (options.maxTimeoutMs !== undefined) max = options.maxTimeoutMs;
      if (options.idleTimeoutMs !== undefined) idle = options.idleTimeoutMs;
      if (m.method === 'tools/call') {
        start.idleTimeoutMs = idle;
        start.maxTimeoutMs = max;
      }
      if (ignoredCancel.has(k)) start.cancellable = false;
      startById.set(k, start);
      cancelledById.delete(k);
      push(e, start, false);
      return;
    }
    if (m.method === 'notifications/cancelled') {
      const id = params.requestId;
      if (validId(id) && startById.has(key(id))) {
        if (only !== null && key(id) !== only) return;
        const timeoutAt = timeouts.get(key(id));
        if (timeoutAt !== undefined && e.atMs >= timeoutAt) {
          dropped.push({ index: e.index, reason: "the cancellation the client's timeout sends (the replay's maximum timeout sends it)" });
          return;
        }
        if (cancelledById.has(key(id))) {
          dropped.push({ index: e.index, reason: 'a second cancellation of the same call (the stream close already cancelled it)' });
          return;
        }
        cancelledById.add(key(id));
        const cancel: Record<string, Json> = { actor: 'client', kind: 'cancel', requestId: id, reason: clip(typeof params.reason === 'string' ? params.reason : 'cancelled', 200) };
        // A malformed cancellation replays as one (issue 11: the server ignores it).
        const malformed = 'id' in m ? 'has-id' : m.jsonrpc === undefined ? 'no-jsonrpc' : m.jsonrpc !== '2.0' ? 'bad-jsonrpc' : params.reason !== undefined && typeof params.reason !== 'string' ? 'reason-not-string' : null;
        if (malformed !== null) cancel.malformed = malformed;
        push(e, cancel, false);
        return;
      }
      if (only !== null) return;
      push(e, { actor: 'client', kind: 'inject', message: m }, false);
      return;
    }
    dropped.push({ index: e.index, reason: `${typeof m.method === 'string' ? m.method : e.kind}: the races lab models ${SCENARIO_CALL_METHODS.join(' and ')} calls only` });
  }

  function handleServer(e: MessageEntry, m: Record<string, Json>, params: Record<string, Json>) {
    if (m.method === 'notifications/progress') {
      const id = validId(params.progressToken) ? tokenToId.get(key(params.progressToken)) : undefined;
      if (id === undefined || typeof params.progress !== 'number') {
        if (only === null) dropped.push({ index: e.index, reason: 'progress for a token no started call carried' });
        return;
      }
      if (only !== null && key(id) !== only) return;
      push(e, { actor: 'server', kind: 'progress', requestId: id, progress: params.progress, total: typeof params.total === 'number' ? params.total : null, message: typeof params.message === 'string' ? clip(params.message, 200) : null }, true);
      return;
    }
    if (m.method === 'notifications/cancelled') {
      const id = params.requestId;
      if (validId(id) && startById.has(key(id)) && (only === null || key(id) === only)) {
        push(e, { actor: 'server', kind: 'server-cancel', requestId: id, reason: clip(typeof params.reason === 'string' ? params.reason : 'cancelled', 200) }, true);
      }
      return;
    }
    if (e.kind === 'response' && validId(m.id) && startById.has(key(m.id))) {
      if (only !== null && key(m.id) !== only) return;
      if (isObject(m.error)) {
        push(e, { actor: 'server', kind: 'error', requestId: m.id, code: Number.isInteger(m.error.code) ? (m.error.code as number) : -32603, message: clip(typeof m.error.message === 'string' ? m.error.message : 'error', 200) }, true);
        return;
      }
      const result = isObject(m.result) ? m.result : {};
      if (result.resultType === 'input_required') {
        const requests = isObject(result.inputRequests) ? result.inputRequests : {};
        const inputKey = Object.keys(requests)[0] ?? 'input';
        const first = requests[inputKey];
        const message = isObject(first) && isObject(first.params) && typeof first.params.message === 'string' ? first.params.message : 'Please confirm';
        const ask: Record<string, Json> = { actor: 'server', kind: 'input-required', requestId: m.id, inputKey: clip(inputKey, 64), message: clip(message, 200) };
        if (typeof result.requestState === 'string') ask.requestState = clip(result.requestState, 200);
        push(e, ask, true);
        awaitingInput.push(m.id);
        return;
      }
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content.map((c) => (isObject(c) && typeof c.text === 'string' ? c.text : null)).find((x) => x !== null) ?? 'done';
      push(e, { actor: 'server', kind: 'complete', requestId: m.id, isError: result.isError === true, text: clip(text, 200) }, true);
      return;
    }
    if (only === null) dropped.push({ index: e.index, reason: `${typeof m.method === 'string' ? m.method : e.kind}: not part of a modelled call` });
  }

  const shift = options.shiftToZero && events.length ? events.reduce((min, e) => Math.min(min, e.at as number), Infinity) : 0;
  // The races engine orders by time; keep the transcript's order for equal times (stable sort).
  const ordered = events.map((e) => ({ ...e, at: (e.at as number) - shift })).sort((a, b) => (a.at as number) - (b.at as number));
  const id = options.id ?? (options.requestId === undefined ? 'imported' : `imported-${String(options.requestId)}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64));
  const raw = {
    format: 1,
    lab: 'races',
    id,
    title: clip(options.title ?? `Imported ${t.formatName.split(' (')[0]}${options.requestId !== undefined ? `, call ${JSON.stringify(options.requestId)}` : ''}`, 120),
    summary: `Opened from an imported transcript (${t.formatName}; ${t.revisionNote}). Times are the transcript's own, in ms from its first message.`.slice(0, 2000),
    seed: 1,
    config: { revision: t.revision, transport, latencyMs: latency, progressResetsIdleTimeout: true },
    events: ordered,
  };
  const parsed = parseScenario(raw, 'races', RACES_SCHEMAS);
  if (!parsed.ok) return { ok: false, errors: parsed.errors, dropped };
  return { ok: true, scenario: parsed.scenario, dropped, pageProblem: racesLengthProblem(parsed.scenario.events) };
}
