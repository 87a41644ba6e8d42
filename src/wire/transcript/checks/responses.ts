import type { MessageEntry } from '../types';
import { canonicalJson, isObject, opposite, teach, validId, type Call, type CheckModule } from './core';

/**
 * Response matching (MCP `basic/index`, both revisions: "Result responses MUST include the same ID
 * as the request they correspond to"; likewise error responses, except when the id could not be
 * read): a response for an id never requested, an id answered under another JSON type, a request
 * answered twice. Errors: a MUST broken.
 */

/** The id of the other JSON type a sender may have meant: `1` for `"1"`, `"1"` for `1`. */
function otherTypeId(id: unknown): string | number | undefined {
  if (typeof id === 'number' && Number.isInteger(id)) return String(id);
  if (typeof id === 'string' && /^-?(0|[1-9]\d{0,15})$/.test(id)) return Number(id);
  return undefined;
}

/** Whether a response with no request to match is excused: an error whose id is null (the request's id could not be read). */
const unreadableIdError = (m: Record<string, unknown>) => m.id === null && 'error' in m;

/** A response whose id no request sent the other way used before it (and not one of the other JSON type either). */
export const responseUnknownId: CheckModule = {
  def: {
    id: 'response-unknown-id',
    title: 'A response for an id that was never requested',
    rule: 'response.same-id',
    ruleText: 'A response MUST carry the id of the request it answers (basic/index); one whose id no request used answers nothing, and the receiver can only drop it.',
    severity: 'error',
    teaches: teach('races', 'I4-late-response-reconnect'),
  },
  create() {
    return {
      visit(e, m, o, ctx) {
        if (o.kind !== 'response' || o.call || !m || e.type !== 'message' || unreadableIdError(m)) return;
        const alt = otherTypeId(m.id);
        if (alt !== undefined && ctx.index.callOf(opposite(e.direction), alt)) return; // response-id-type says it
        ctx.add('response-unknown-id', `The ${e.direction === 's2c' ? 'server' : 'client'} answers id ${JSON.stringify(m.id)} at ${e.atMs} ms (line ${e.line}), but no request with that id was sent ${e.direction === 's2c' ? 'to it' : 'by the server'} before.`, [e], validId(m.id) ? [m.id] : []);
      },
    };
  },
};

/** A response under `"1"` for a request sent as `1` (or the reverse): distinct JSON-RPC ids, so the request is not answered. */
export const responseIdType: CheckModule = {
  def: {
    id: 'response-id-type',
    title: 'A request answered under an id of another JSON type ("1" for 1)',
    rule: 'response.same-id',
    ruleText: 'The response id MUST be the same value as the request id: the string "1" and the number 1 are different ids, so the request stays unanswered.',
    severity: 'error',
    teaches: teach('races', 'I4-late-response-reconnect'),
  },
  create() {
    return {
      visit(e, m, o, ctx) {
        if (o.kind !== 'response' || o.call || !m || e.type !== 'message') return;
        const alt = otherTypeId(m.id);
        const call = alt === undefined ? undefined : ctx.index.callOf(opposite(e.direction), alt);
        if (!call) return;
        ctx.add('response-id-type', `Request ${call.idKey} (${call.method}, at ${call.entry.atMs} ms) is answered at ${e.atMs} ms under id ${JSON.stringify(m.id)}: a ${typeof m.id} where the request used a ${typeof call.id}, so by JSON-RPC they are different ids and the request is still unanswered.`, [call.entry, e], [call.id, m.id as string | number], undefined, e);
      },
    };
  },
};

/** A second response to a request already answered (the id was not reused by a new request in between). */
export const responseTwice: CheckModule = {
  def: {
    id: 'response-twice',
    title: 'A request answered twice',
    rule: 'response.once',
    ruleText: 'A request gets one response (JSON-RPC 2.0 §5, MCP basic/index): a second one corresponds to no request, and a client that takes it as the answer to its next call is one message behind.',
    severity: 'error',
    teaches: teach('races', 'I6-cancel-in-write-window'),
  },
  create() {
    const extra = new Map<Call, MessageEntry[]>();
    return {
      visit(e, _m, o) {
        if (o.kind !== 'response' || !o.call || o.call.response === null) return;
        const list = extra.get(o.call);
        if (list) list.push(e as MessageEntry);
        else extra.set(o.call, [e as MessageEntry]);
      },
      finish(ctx) {
        for (const [call, list] of extra) {
          const first = call.response as MessageEntry;
          ctx.add('response-twice', `Request ${call.idKey} (${call.method}) was answered at ${first.atMs} ms and again at ${list.map((r) => `${r.atMs} ms`).join(', ')}: ${list.length + 1} responses for one request.`, [call.entry, first, ...list], [call.id], undefined, list[0]);
        }
      },
    };
  },
};

/**
 * Two different successful results for one idempotency key (same tool): the key was not honoured —
 * a keyed retry must get the stored result back, not a second execution (ledger lab; error).
 * Results compare as canonical JSON without their top-level `_meta`; `isError` results are not
 * compared (a failed first try may be retried).
 */
export const idempotencyKeyConflict: CheckModule = {
  def: {
    id: 'idempotency-key-conflict',
    title: 'Two different results for one idempotency key',
    rule: 'idempotency.replay',
    ruleText: 'A repeat of a call with the same idempotency key gets the stored result of the first execution; a different result means the key was not honoured and the work ran again.',
    severity: 'error',
    teaches: teach('ledger', 'H-tool-layer-drops-key'),
  },
  create() {
    const firstByKey = new Map<string, { call: Call; entry: MessageEntry; result: string }>();
    const conflicts = new Map<string, { call: Call; entry: MessageEntry }[]>();
    return {
      visit(e, m, o) {
        if (o.kind !== 'response' || !o.call || o.call.response !== null || !m || !o.call.idempotencyKey || o.call.tool === null) return;
        const result = m.result;
        if (!isObject(result) || result.isError === true) return;
        const { _meta: _drop, ...rest } = result;
        const canonical = canonicalJson(rest);
        const key = `${o.call.tool}\u0000${o.call.idempotencyKey}`;
        const first = firstByKey.get(key);
        if (!first) firstByKey.set(key, { call: o.call, entry: e as MessageEntry, result: canonical });
        else if (first.result !== canonical) {
          const list = conflicts.get(key);
          if (list) list.push({ call: o.call, entry: e as MessageEntry });
          else conflicts.set(key, [{ call: first.call, entry: first.entry }, { call: o.call, entry: e as MessageEntry }]);
        }
      },
      finish(ctx) {
        for (const list of conflicts.values()) {
          const { call } = list[0];
          ctx.add(
            'idempotency-key-conflict',
            `tools/call "${call.tool}" with idempotency key ${call.idempotencyKey} got ${list.length} different results (ids ${list.map((c) => c.call.idKey).join(', ')}, answered at ${list.map((c) => `${c.entry.atMs} ms`).join(', ')}): the key was not honoured — the repeat ran again instead of replaying the stored result.`,
            list.flatMap((c) => [c.call.entry, c.entry]),
            list.map((c) => c.call.id),
            undefined,
            list[1].entry,
          );
        }
      },
    };
  },
};
