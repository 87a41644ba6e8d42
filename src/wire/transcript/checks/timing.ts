import type { MessageEntry } from '../types';
import { ruleText, teach, type Call, type CheckContext, type CheckModule } from './core';

/** The timing checks over each client call once the run is over: the stated maximum, and a timeout with no cancellation. */

/** A client call (other than the listen stream) that lived longer than `maxMs` (runs only when the option is set). */
export const outlivedMaximum: CheckModule = {
  def: {
    id: 'outlived-maximum',
    title: 'A call outlived the stated maximum timeout',
    rule: 'timeout.max',
    ruleText: ruleText('timeout.max'),
    severity: 'warning',
    teaches: teach('races', 'C-progress-idle-maximum', 'policy.idleTimeoutOnly=true'),
  },
  create() {
    /** Judges one call; `response`: its response (given when it arrives, before the index records it). */
    const judge = (call: Call, response: MessageEntry | null, ctx: CheckContext) => {
      const maxMs = ctx.opts.maxMs;
      if (maxMs === null || call.direction !== 'c2s' || call.method === 'subscriptions/listen') return;
      // At the response, every other end before it is known, and any later one cannot be the earliest.
      const ends = [response?.atMs, call.cancels[0]?.atMs, call.streamClose?.atMs, call.timeout?.atMs].filter((x): x is number => x !== undefined);
      const end = ends.length ? Math.min(...ends) : null;
      const lived = (end ?? ctx.endMs) - call.entry.atMs;
      if (lived <= maxMs) return;
      ctx.add(
        'outlived-maximum',
        end !== null
          ? `Request ${call.idKey} (${call.method}) lived ${lived} ms, from ${call.entry.atMs} ms to ${end} ms, beyond the stated maximum of ${maxMs} ms.`
          : `Request ${call.idKey} (${call.method}) is still open at the end of the transcript, ${lived} ms after it was sent: beyond the stated maximum of ${maxMs} ms.`,
        [call.entry, ...(response ? [response] : [])],
        [call.id],
      );
    };
    return {
      visit(e, _m, o, ctx) {
        if (o.kind === 'response' && o.call && o.call.response === null) judge(o.call, e as MessageEntry, ctx);
      },
      finish(ctx) {
        // The calls never answered (and, for s2c, none are judged).
        for (const call of ctx.index.open) judge(call, null, ctx);
      },
    };
  },
};

/** A client timeout with no cancellation signal (notifications/cancelled, or on HTTP the stream close) within the allowance. */
export const timeoutWithoutCancel: CheckModule = {
  def: {
    id: 'timeout-without-cancel',
    title: 'The client timed out without a cancellation signal',
    rule: 'timeout.idle',
    ruleText: ruleText('timeout.idle'),
    severity: 'warning',
    teaches: teach('races', 'F3-late-result', 'policy.timeoutWithoutCancel=true'),
  },
  create() {
    return {
      finish(ctx) {
        for (const call of ctx.index.timedOut) {
          if (call.direction !== 'c2s' || !call.timeout) continue;
          const limit = call.timeout.atMs + ctx.opts.allowanceMs;
          const signalled = call.cancels.some((c) => c.atMs <= limit) || (call.streamClose !== null && call.streamClose.atMs <= limit);
          if (signalled) continue;
          ctx.add(
            'timeout-without-cancel',
            `The client timed out request ${call.idKey} at ${call.timeout.atMs} ms but sent no cancellation signal (notifications/cancelled, or on HTTP the stream close) within ${ctx.opts.allowanceMs} ms: the server keeps working blind${call.response && call.response.atMs > call.timeout.atMs ? ` — its response arrived at ${call.response.atMs} ms` : ''}.`,
            [call.entry, call.timeout, ...(call.response ? [call.response] : [])],
            [call.id],
            undefined,
            call.timeout,
          );
        }
      },
    };
  },
};
