import type { MessageEntry, MetaEntry } from '../types';
import { pushTo, ruleText, teach, type Call, type CheckModule } from './core';

/**
 * The cancellation checks (races lab rules `cancel.*`): a server that kept working after a cancel,
 * a message after a 2026-07-28 response stream closed, cancels for unknown or finished ids, and a
 * 2026-07-28 HTTP client that POSTs notifications/cancelled.
 */

/** Progress or a response for a call, well after its cancellation (warning: the spec allows work that cannot be stopped). */
export const lateAfterCancel: CheckModule = {
  def: {
    id: 'late-after-cancel',
    title: 'The server kept working after the cancellation',
    rule: 'cancel.receiver-stops',
    ruleText: ruleText('cancel.receiver-stops'),
    severity: 'warning',
    teaches: teach('races', 'A-cancel-then-complete', 'policy.respondAfterCancel=true'),
  },
  create() {
    const late = new Map<Call, MessageEntry[]>();
    return {
      visit(e, _m, o, ctx) {
        if ((o.kind !== 'response' && o.kind !== 'progress') || !o.call) return;
        const cancel = o.call.cancels[0];
        if (cancel && e.atMs > cancel.atMs + ctx.opts.allowanceMs) pushTo(late, o.call, e as MessageEntry);
      },
      finish(ctx) {
        for (const [call, list] of late) {
          const cancel = call.cancels[0];
          const what = list.map((m) => `${m.kind === 'response' ? 'the response' : 'progress'} at ${m.atMs} ms`).join(', ');
          ctx.add(
            'late-after-cancel',
            `Request ${call.idKey} was cancelled at ${cancel.atMs} ms, yet the server sent ${what} — more than ${ctx.opts.allowanceMs} ms later, so it kept working: either it ignored the cancellation (allowed only for work that cannot be stopped; the client must drop the response) or it accepted it and still answered (a bug).`,
            [call.entry, cancel, ...list],
            [call.id],
            undefined,
            list[0],
          );
        }
      },
    };
  },
};

/** Under 2026-07-28, a message for a request after its response stream closed (the close is the cancel: MUST NOT send further messages). */
export const messageAfterStreamClose: CheckModule = {
  def: {
    id: 'message-after-stream-close',
    title: 'A message for a request after its HTTP response stream closed (2026-07-28)',
    rule: 'cancel.http-2026',
    ruleText: ruleText('cancel.http-2026'),
    severity: 'error',
    teaches: teach('races', 'D-http-stream-close', 'policy.respondAfterCancel=true'),
  },
  create() {
    const after = new Map<Call, MessageEntry[]>();
    return {
      visit(e, _m, o, ctx) {
        if ((o.kind !== 'response' && o.kind !== 'progress') || !o.call) return;
        const close = o.call.streamClose;
        if (close && ctx.revision === '2026-07-28' && e.atMs > close.atMs + ctx.opts.allowanceMs) pushTo(after, o.call, e as MessageEntry);
      },
      finish(ctx) {
        for (const [call, list] of after) {
          const close = call.streamClose as MetaEntry;
          ctx.add(
            'message-after-stream-close',
            `The response stream of ${call.idKey} closed at ${close.atMs} ms (${close.cause === 'network' ? 'a network drop' : 'the client'}), which under 2026-07-28 cancels it; the server still wrote ${list.map((m) => `${m.kind === 'response' ? 'its response' : 'progress'} at ${m.atMs} ms`).join(', ')}.`,
            [call.entry, close, ...list],
            [call.id],
            undefined,
            list[0],
          );
        }
      },
    };
  },
};

/** A cancellation naming an id no request used before it (the receiver ignores it). */
export const cancelUnknownId: CheckModule = {
  def: {
    id: 'cancel-unknown-id',
    title: 'A cancellation for an id no request used',
    rule: 'cancel.ignore-invalid',
    ruleText: ruleText('cancel.ignore-invalid'),
    severity: 'warning',
    teaches: teach('races', 'E-invalid-cancels'),
  },
  create() {
    return {
      visit(e, _m, o, ctx) {
        if (o.kind !== 'cancel' || o.call || e.type !== 'message') return;
        ctx.add('cancel-unknown-id', `${e.direction === 'c2s' ? 'The client' : 'The server'} cancels request ${JSON.stringify(o.requestId)} at ${e.atMs} ms, but no request with that id was sent before: the receiver ignores it.`, [e], [o.requestId]);
      },
    };
  },
};

/**
 * A cancellation arriving beyond the allowance after the request was answered (the response
 * stands). Not, under 2026-07-28, for a request answered with a task handle: cancelling that is the tasks
 * extension's MUST NOT (`task-cancel-notification`), not a cancel that lost a race.
 */
export const cancelFinishedId: CheckModule = {
  def: {
    id: 'cancel-finished-id',
    title: 'A cancellation for a request that had already finished',
    rule: 'cancel.complete-first',
    ruleText: ruleText('cancel.complete-first'),
    severity: 'warning',
    teaches: teach('races', 'B-complete-then-cancel'),
  },
  create() {
    return {
      visit(e, _m, o, ctx) {
        if (o.kind !== 'cancel' || !o.call || e.type !== 'message' || o.call.direction !== e.direction) return;
        const call = o.call;
        if (call.response !== null && !(call.taskHandle && ctx.revision === '2026-07-28') && e.atMs > call.response.atMs + ctx.opts.allowanceMs) {
          ctx.add(
            'cancel-finished-id',
            `Request ${call.idKey} was answered at ${call.response.atMs} ms; its cancellation comes ${e.atMs - call.response.atMs} ms later (beyond the ${ctx.opts.allowanceMs} ms allowance): the response stands and the cancel is ignored.`,
            [call.response, e],
            [call.id],
            undefined,
            e,
          );
        }
      },
    };
  },
};

/** Under 2026-07-28 on Streamable HTTP, closing the response stream is the cancellation: a POSTed notifications/cancelled breaks it. */
export const httpCancelPost2026: CheckModule = {
  def: {
    id: 'http-cancel-post-2026',
    title: 'notifications/cancelled POSTed on Streamable HTTP under 2026-07-28',
    rule: 'cancel.http-2026',
    ruleText: ruleText('cancel.http-2026'),
    severity: 'error',
    teaches: teach('races', 'D-http-stream-close', 'policy.httpPostsCancel=true'),
  },
  create() {
    return {
      visit(e, _m, o, ctx) {
        if (o.kind !== 'cancel' || !o.call || e.type !== 'message' || o.call.direction !== e.direction) return;
        const call = o.call;
        if (ctx.revision === '2026-07-28' && e.direction === 'c2s' && (e.transport === 'streamable-http' || call.entry.transport === 'streamable-http')) {
          ctx.add(
            'http-cancel-post-2026',
            `The client POSTs notifications/cancelled for ${call.idKey} at ${e.atMs} ms on Streamable HTTP under 2026-07-28, where closing the request's response stream is the cancellation and no notification is sent.`,
            [call.entry, e],
            [call.id],
            undefined,
            e,
          );
        }
      },
    };
  },
};
