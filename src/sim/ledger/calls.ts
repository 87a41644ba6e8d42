import { callToolRequest, toolResultResponse, type Revision } from '../mcp';
import type { ApplyContext, Json } from '../types';
import { beginCharge, usableKey, type ChargeCall, type ChargeReply } from './ledger';
import { replaceAt, type CallState, type LedgerEnv, type LedgerState, type LedgerTimer } from './state';
import type { CallEvent, RetryEvent } from './schema';

/**
 * The ledger model's client side: calls of `charge` (first attempts, scripted retries, the
 * automatic retry after a 409) sent over Streamable HTTP, and the server's replies delivered
 * (or lost after the client's timeout). Split out of `model.ts`; `env` is the model's replay.
 */

/** A first attempt (`root` null) or a retry of `root`. */
export function startCall(env: LedgerEnv, state: LedgerState, e: CallEvent | RetryEvent, ctx: ApplyContext<LedgerTimer>, root: CallState | null): Omit<LedgerState, 'tables'> {
  const key = JSON.stringify(e.requestId);
  if (state.calls.some((c) => c.key === key)) {
    ctx.ignore({ by: 'client', what: `call ${key}`, reason: `request id ${key} is already in use; JSON-RPC ids must be unique per session` });
    ctx.why(`Call ignored: request id ${key} was used before.`);
    return state;
  }
  let call: CallState;
  if (root === null) {
    const c = e as CallEvent;
    const k = usableKey(c.key) ? c.key : null;
    call = {
      key,
      requestId: c.requestId,
      root: key,
      attempt: 0,
      operation: k ?? key,
      idempotencyKey: c.key,
      args: { account: c.account, cents: c.cents },
      durationMs: c.durationMs,
      timeoutMs: c.timeoutMs,
      sentAtMs: ctx.now,
      reply: null,
      replyAtMs: null,
      client: 'waiting',
      responseLost: false,
      timeoutHandle: null,
      upstreamKey: null,
      inUseRetries: 0,
      inUseOrigin: c.requestId,
      retriedAs: null,
      gaveUpOnInUse: false,
    };
  } else {
    const attempt = state.calls.filter((x) => x.root === root.root).length;
    const idempotencyKey = env.config.clientKey === 'per-attempt' && usableKey(root.idempotencyKey) ? `${root.idempotencyKey}.retry${attempt}` : root.idempotencyKey;
    call = { ...root, key, requestId: e.requestId, attempt, idempotencyKey, sentAtMs: ctx.now, reply: null, replyAtMs: null, client: 'waiting', responseLost: false, timeoutHandle: null, inUseRetries: 0, inUseOrigin: e.requestId, retriedAs: null, gaveUpOnInUse: false };
  }
  const what = root === null ? `Request ${key} calls charge(${call.args.account}, ${call.args.cents})` : `Request ${key} retries ${root.key} with a new JSON-RPC id`;
  return sendCall(env, state, call, ctx, what);
}

/**
 * `onInUse: 'wait-retry'`: the client retries call `i` (answered 409) with the same key and a new
 * JSON-RPC id `<origin>-r<n>` (Stripe: "retry later with the same key"; a new request under MCP).
 */
export function autoRetry(env: LedgerEnv, state: LedgerState, i: number, ctx: ApplyContext<LedgerTimer>): Omit<LedgerState, 'tables'> {
  const c = state.calls[i];
  const n = c.inUseRetries + 1;
  let requestId: string = `${String(c.inUseOrigin)}-r${n}`;
  for (let k = 2; state.calls.some((x) => x.key === JSON.stringify(requestId)); k++) requestId = `${String(c.inUseOrigin)}-r${n}.${k}`;
  const key = JSON.stringify(requestId);
  const attempt = state.calls.filter((x) => x.root === c.root).length;
  const call: CallState = { ...c, key, requestId, attempt, sentAtMs: ctx.now, reply: null, replyAtMs: null, client: 'waiting', responseLost: false, timeoutHandle: null, inUseRetries: n, retriedAs: null, gaveUpOnInUse: false };
  const calls = replaceAt(state.calls, i, { ...c, retriedAs: key });
  return sendCall(env, { ...state, calls }, call, ctx, `Request ${key}: after ${env.config.inUseRetryMs} ms the client retries ${c.key}'s 409 with the same key "${c.idempotencyKey}" and a new JSON-RPC id (retry ${n} of at most ${env.config.inUseMaxRetries})`);
}

/** Sends `call` (new, appended to the calls): arms its timeout, emits the tools/call, and lets the server claim or answer. */
function sendCall(env: LedgerEnv, state: Omit<LedgerState, 'tables'>, call: CallState, ctx: ApplyContext<LedgerTimer>, what: string): Omit<LedgerState, 'tables'> {
  const key = call.key;
  call.upstreamKey = env.config.toolLayer === 'drops-key' ? null : call.idempotencyKey;
  if (call.timeoutMs !== null) call.timeoutHandle = ctx.schedule(ctx.now + call.timeoutMs, 2, 'client', `timeout ${key}`, { kind: 'timeout', call: key });
  const calls = [...state.calls, call];
  const i = calls.length - 1;
  const request = callToolRequest(env.config.revision as Revision, call.requestId, 'charge', null) as { params: { arguments: Record<string, Json> } };
  request.params.arguments = { account: call.args.account, cents: call.args.cents, ...(call.idempotencyKey !== null ? { idempotencyKey: call.idempotencyKey } : {}) };
  ctx.emit({ from: 'client', transport: 'streamable-http', message: request as unknown as Json, http: 'POST /mcp', arrivesAt: ctx.now, requestKey: key });
  const keyText = call.idempotencyKey === null || !usableKey(call.idempotencyKey) ? 'no idempotency key' : `key "${call.idempotencyKey}"`;
  const reply = beginCharge(env.db!, toCall(call, ctx.now), env.config.dedupe === 'key');
  if (reply !== null) return deliver(env, { ...state, calls }, i, reply, ctx, `${what} with ${keyText}`);
  ctx.schedule(ctx.now + call.durationMs, 0, 'server', `finish ${key}`, { kind: 'finish', call: key });
  const dropped = usableKey(call.idempotencyKey) && call.upstreamKey === null;
  const claim = dropped
    ? ' The MCP tool layer drops the key before calling the upstream (toolLayer: drops-key), so the upstream that would deduplicate sees a call without a key and runs it.'
    : env.config.dedupe === 'key' && usableKey(call.idempotencyKey)
      ? ' The key is claimed (in_progress) in one transaction.'
      : env.config.dedupe === 'none'
        ? ' The server ignores keys (dedupe: none).'
        : ' Without a key nothing can recognise a repeat.';
  ctx.why(`${what} with ${keyText}.${claim} The charge commits after ${call.durationMs} ms of work.`);
  return { ...state, calls };
}

/** Records the server's reply to call `i` and sends it (lost if the client already gave up). */
export function deliver(env: LedgerEnv, state: Omit<LedgerState, 'tables'>, i: number, reply: ChargeReply, ctx: ApplyContext<LedgerTimer>, what: string): Omit<LedgerState, 'tables'> {
  const c = state.calls[i];
  const lost = c.client === 'timed-out';
  const ok = reply.kind === 'executed' || reply.kind === 'replayed';
  if (c.timeoutHandle !== null) ctx.cancel(c.timeoutHandle);
  const next: CallState = { ...c, reply, replyAtMs: ctx.now, client: lost ? 'timed-out' : ok ? 'ok' : 'error', responseLost: lost, timeoutHandle: null };
  let after = '';
  if (reply.kind === 'in-use' && !lost && env.config.onInUse !== 'scripted') {
    if (env.config.onInUse === 'wait-retry' && c.inUseRetries < env.config.inUseMaxRetries) {
      ctx.schedule(ctx.now + env.config.inUseRetryMs, 2, 'client', `retry ${c.key} after 409`, { kind: 'in-use-retry', call: c.key });
      after = ` The client waits ${env.config.inUseRetryMs} ms and retries with the same key (the first execution is still running; after its commit the retry gets the stored result).`;
    } else {
      next.gaveUpOnInUse = true;
      after =
        env.config.onInUse === 'give-up'
          ? ' The client takes the 409 as the final answer: the user sees a failure although the charge is about to succeed (and may try again with a new key).'
          : ` The client has retried ${env.config.inUseMaxRetries} times and gives up.`;
    }
  }
  const text = ok ? `${reply.kind === 'replayed' ? 'replayed ' : ''}${reply.result.receipt}: ${reply.result.cents} cents from ${reply.result.account}` : reply.message;
  const response = toolResultResponse(env.config.revision as Revision, c.requestId, text, !ok) as { result: Record<string, Json> };
  if (ok) response.result.structuredContent = { ...reply.result, replayed: reply.kind === 'replayed' } as unknown as Json;
  ctx.emit({ from: 'server', transport: 'streamable-http', message: response as unknown as Json, arrivesAt: lost ? undefined : ctx.now, requestKey: c.key });
  const said: Record<ChargeReply['kind'], string> = {
    executed: 'executed',
    replayed: `returned the stored result of request ${ok ? JSON.stringify(reply.result.requestId) : ''} — nothing executed`,
    'in-use': 'answered 409 idempotency_key_in_use ("in progress") — nothing executed',
    mismatch: 'rejected: same key, different arguments — nothing executed',
    invalid: 'rejected before any transaction',
  };
  ctx.why(`${what}: ${said[reply.kind]}${ok ? ` (${reply.result.receipt})` : ''}.${lost ? ' The client had already timed out, so this response is lost.' : ''}${after}`);
  return { ...state, calls: replaceAt(state.calls, i, next) };
}

/** The charge call the server receives for `c` (its key as it reaches the upstream), at `atMs`. */
export function toCall(c: CallState, atMs = c.sentAtMs): ChargeCall {
  return { requestId: c.requestId, key: c.upstreamKey, args: c.args, atMs };
}

