import { ruleText, teach, type CheckModule } from './core';

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
    return {
      finish(ctx) {
        const maxMs = ctx.opts.maxMs;
        if (maxMs === null) return;
        for (const call of ctx.index.calls) {
          if (call.direction !== 'c2s' || call.method === 'subscriptions/listen') continue;
          const ends = [call.response?.atMs, call.cancels[0]?.atMs, call.streamClose?.atMs, call.timeout?.atMs].filter((x): x is number => x !== undefined);
          const end = ends.length ? Math.min(...ends) : null;
          const lived = (end ?? ctx.endMs) - call.entry.atMs;
          if (lived <= maxMs) continue;
          ctx.add(
            'outlived-maximum',
            end !== null
              ? `Request ${call.idKey} (${call.method}) lived ${lived} ms, from ${call.entry.atMs} ms to ${end} ms, beyond the stated maximum of ${maxMs} ms.`
              : `Request ${call.idKey} (${call.method}) is still open at the end of the transcript, ${lived} ms after it was sent: beyond the stated maximum of ${maxMs} ms.`,
            [call.entry, ...(call.response ? [call.response] : [])],
            [call.id],
          );
        }
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
        for (const call of ctx.index.calls) {
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
