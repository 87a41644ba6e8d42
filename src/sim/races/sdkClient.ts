import { ERROR_CODES } from '../mcp';
import { RANK, type RequestState } from './types';
import { changed, describeId, hotLabels, NO_KEYS, sendCancelSignal, settle, touch, type Ctx, type RacesCore } from './state';
import { sdkMajor, sdkMaximumTripsOnProgress, sdkTimeoutCancelReason } from './sdkProfile';

/**
 * The steps of the races model that differ under the "TypeScript SDK v1" profile (`sdkProfile.ts`
 * says what and why). Each is called by the lab's own rule (`client.ts`, `server.ts`) when
 * `isSdk(config)` holds (either SDK profile; `sdkMajor` picks where v1 and v2 part); nothing here
 * runs for the lab's default profile.
 */

/**
 * Progress reaches the SDK client for a pending call (`Protocol._onprogress`): with
 * the reset-on-progress option on, its timer reset (Protocol's reset-timeout step) first compares the elapsed time with
 * `maxTotalTimeout` — past it, the call is rejected with no cancel and the idle timer left armed
 * (`sdk.no-cancel-at-maximum`); otherwise the idle timer restarts. The SDK does not check that the
 * value increases: every progress resets the timer and reaches `onprogress`.
 */
export function sdkClientProgress(state: RacesCore, req: RequestState, progress: number, ctx: Ctx): void {
  const { config } = state;
  const c = req.client;
  const now = ctx.now;
  if (config.progressResetsIdleTimeout && req.wireToken !== null && req.idleTimeoutMs !== null) {
    if (sdkMaximumTripsOnProgress(config, req, now)) {
      if (sdkMajor(config) === 2) return sdkV2MaximumTrips(state, req, progress, ctx);
      settle(req, now, 'timeout-max', `maximum total timeout of ${req.maxTimeoutMs} ms noticed only when progress arrived at ${now} ms: error ${ERROR_CODES.requestTimeout} "Maximum total timeout exceeded"; the SDK sends no cancellation and leaves the idle timer (deadline ${req.idleDeadlineAt} ms) armed`, 'sdk.no-cancel-at-maximum');
      ctx.why(() => `Progress ${progress} reaches the SDK client at ${now} ms; only now does the SDK's timer reset compare the elapsed ${now - req.startAt} ms with maxTotalTimeout ${req.maxTimeoutMs} ms (deadline was ${req.maxDeadlineAt} ms): the call is rejected, but no notifications/cancelled is sent — the cancel waits for the old idle timer at ${req.idleDeadlineAt} ms.`, 'sdk.no-cancel-at-maximum');
      return changed(state, req);
    }
    ctx.cancel(req.idleHandle);
    const idleDeadlineAt = now + req.idleTimeoutMs;
    const hot = hotLabels(state, req);
    req.idleHandle = ctx.schedule(idleDeadlineAt, RANK.idleDeadline, 'client', hot.idleDeadline, hot.idlePayload);
    req.idleDeadlineAt = idleDeadlineAt;
  }
  const increases = c.lastProgress === null || progress > c.lastProgress;
  c.lastProgress = progress;
  c.progressAccepted++;
  const reset = config.progressResetsIdleTimeout && req.wireToken !== null && req.idleTimeoutMs !== null;
  const maxText = req.maxTimeoutMs === null ? '' : reset ? `; the maximum (${req.maxDeadlineAt} ms) is only checked at the next progress` : '; the reset-timeout-on-progress option is off, so the SDK never checks the maximum';
  ctx.why(() => `Progress ${progress} for ${describeId(req.id)} reaches the SDK client${increases ? '' : ' (not an increase: the SDK accepts it anyway)'}; ${reset ? `the idle timer restarts (deadline ${req.idleDeadlineAt} ms)` : 'the idle timer stays'}${maxText}.`, !increases ? 'sdk.progress-not-checked' : 'progress.resets-idle');
  changed(state, req);
}

/**
 * SDK v2: progress reaches the client past the maximum; the timeout reset in `Protocol._onprogress` throws and the call is
 * rejected ("Maximum total timeout exceeded"), and the response handler marks the request answered
 * first, so the idle timer left armed will find nothing to cancel: the lab cancels that timer here
 * (what it would do when it fires is nothing) and no `notifications/cancelled` is ever sent
 * (`sdk.v2-no-cancel-after-maximum`). The server works on.
 */
function sdkV2MaximumTrips(state: RacesCore, req: RequestState, progress: number, ctx: Ctx): void {
  const now = ctx.now;
  ctx.cancel(req.idleHandle);
  req.idleHandle = -1;
  settle(req, now, 'timeout-max', `maximum total timeout of ${req.maxTimeoutMs} ms noticed only when progress arrived at ${now} ms: "Maximum total timeout exceeded"; the SDK v2 client marks the request answered, so it never sends a cancellation`, 'sdk.v2-no-cancel-after-maximum');
  ctx.why(() => `Progress ${progress} reaches the SDK v2 client at ${now} ms; only now does its timer reset compare the elapsed ${now - req.startAt} ms with maxTotalTimeout ${req.maxTimeoutMs} ms: the call is rejected and counted as answered, so no notifications/cancelled will ever be sent — the server keeps working.`, 'sdk.v2-no-cancel-after-maximum');
  changed(state, req);
}

/**
 * The SDK client's old idle timer fires for a call its maximum check already rejected: `cancel()`
 * runs now and sends `notifications/cancelled` (reason `String(McpError)`), late.
 */
export function sdkStaleIdleFires(state: RacesCore, req: RequestState, ctx: Ctx): void {
  req.idleHandle = -1;
  sendCancelSignal(state, req, sdkTimeoutCancelReason(state.config), ctx);
  const now = ctx.now;
  const late = req.maxDeadlineAt === null ? 0 : now - req.maxDeadlineAt;
  ctx.why(() => `The idle timer the SDK left armed fires at ${now} ms: only now is notifications/cancelled sent for ${describeId(req.id)}, ${late} ms after its maximum deadline (the call was rejected at ${req.client.atMs} ms).`, 'sdk.no-cancel-at-maximum');
  changed(state, req);
}

/**
 * The caller aborts a call that already ended: the SDK's abort listener is still attached, so
 * `cancel()` sends `notifications/cancelled` again although nothing is in flight; the call's state stays.
 */
export function sdkAbortAfterEnd(state: RacesCore, req: RequestState, reason: string, ctx: Ctx): void {
  sendCancelSignal(state, req, reason, ctx);
  ctx.why(() => `The caller aborts ${describeId(req.id)}, which already ended ${req.client.state} at ${req.client.atMs} ms: the SDK's abort listener still sends notifications/cancelled (the lab's client would send nothing).`, 'sdk.abort-after-end');
  changed(state, req);
}

/** The SDK server drops a cancellation the lab's server would act on (see `sdkServerIgnoresCancel`). */
export function ignoredBySdk(state: RacesCore, why: { reason: string; rule: string }, ctx: Ctx): void {
  ctx.ignore({ by: 'server', what: 'notifications/cancelled', reason: why.reason, rule: why.rule });
  ctx.why(() => `The TypeScript SDK v${sdkMajor(state.config) ?? 1} server does not act on this cancellation: ${why.reason}.`, why.rule);
  touch(state, NO_KEYS);
}

/**
 * The SDK v1 server aborts the handler's signal for any cancel it accepts: it has no notion of work
 * that cannot be stopped. The handler may ignore the signal and run on (`workEndedAt` stays null),
 * but the server drops its result (`if (abortController.signal.aborted) return`): no response.
 * Called after the server state was set to cancelled.
 */
export function sdkAbortsUncancellable(state: RacesCore, req: RequestState, ctx: Ctx): void {
  req.server.workEndedAt = null;
  ctx.why(() => `The SDK server aborts the handler's signal for ${describeId(req.id)}: this work cannot stop and runs on, but its result will be dropped (an aborted request gets no response) — the lab's server would ignore the cancel and answer.`, 'sdk.aborts-any-handler');
  changed(state, req);
}

/**
 * SDK v2, Streamable HTTP: the network cuts the response stream of a pending call. The transport
 * only reports "SSE stream disconnected" (onerror); the call is neither failed nor re-issued and
 * keeps its timers, so it ends when its idle (or, on progress, maximum) timeout fires — whatever
 * was still in flight on the stream is lost (`sdk.broken-stream-pending`, typescript-sdk#2739).
 * The server's side of the cut (arrive.stream-close) is scheduled by the caller.
 */
export function sdkV2StreamCut(state: RacesCore, req: RequestState, ctx: Ctx): void {
  req.sdkStreamCutAt = ctx.now;
  const now = ctx.now;
  ctx.why(() => `The response stream of ${describeId(req.id)} drops at ${now} ms. The SDK v2 client reports "SSE stream disconnected" but neither fails the call nor re-issues it: the call stays pending until its timeout${req.idleDeadlineAt !== null ? ` (idle deadline ${req.idleDeadlineAt} ms)` : ''}, and anything still on the stream is lost.`, 'sdk.broken-stream-pending');
  changed(state, req);
}

/** SDK v2: a message for a call whose response stream was cut never reaches the client (it was on the broken stream). */
export function sdkLostOnCutStream(state: RacesCore, req: RequestState, what: string, ctx: Ctx): void {
  ctx.ignore({ by: 'client', what: `${what} for ${req.key}`, reason: `it was on the response stream the network cut at ${req.sdkStreamCutAt} ms: lost`, rule: 'sdk.broken-stream-pending' });
  ctx.why(() => `${what[0].toUpperCase()}${what.slice(1)} for ${describeId(req.id)} was on the response stream cut at ${req.sdkStreamCutAt} ms: it never reaches the SDK client.`, 'sdk.broken-stream-pending');
  touch(state, req.self);
}

