/**
 * The one long-running job every lab tool of `serve` runs (`slow_job`, each `fault_*` tool), with
 * the live faults applied to it. What each fault does is in `src/sim/faultVocabulary.ts`; how it
 * is done on the wire is here. Where the SDK cannot misbehave on purpose (an answer after a
 * cancel, a second response, a response for an unknown id, progress after the result) the frame is
 * written on the request's transport directly through its `RequestChannel`, beside the SDK.
 */
import type { LiveFaultName } from '../../sim/faultVocabulary';
import type { RequestChannel, ServeRuntime } from './runtime';

/** The text content of a tool result. */
export interface TextResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
}

/** What the job knows of the request it serves (from the SDK's handler context). */
export interface JobCall {
  id: string | number;
  /** `_meta.progressToken`, when the call carried one (progress is sent only then). */
  progressToken: string | number | undefined;
  /** Aborted by the SDK on the revision's cancellation (stdio / 2025 HTTP: notifications/cancelled; 2026 HTTP: the stream closed). */
  signal: AbortSignal;
  /** Sends a notification related to the request (the SDK's `ctx.mcpReq.notify`). */
  notify(notification: { method: string; params: Record<string, unknown> }): Promise<void>;
  channel: RequestChannel | undefined;
  /** The era the call is served in: a frame written by hand carries the era's result shape (2026-07-28: `resultType`). */
  era?: 'modern' | 'legacy';
}

/** The job's timings and the faults on it. */
export interface JobPlan {
  tool: string;
  durationMs: number;
  /** 0: no progress. */
  progressEveryMs: number;
  faults: ReadonlySet<LiveFaultName>;
  /** `big-result`: the result's size in bytes (default 5 MiB). */
  resultBytes?: number;
  /** `late-result`: when the answer comes (default 75 000 ms, after most clients' timeouts). */
  lateMs?: number;
}

/** Default timings of the faults (ms, bytes), all clipped to the server's caps. */
export const FAULT_DEFAULTS = { lateMs: 75_000, resultBytes: 5 * 1024 * 1024, stormEveryMs: 5, crashExitCode: 70 } as const;

/** Sleeps `ms`, waking early when `signal` aborts (if given). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A text of exactly `bytes` ASCII bytes that says what it is. */
export function bigText(bytes: number): string {
  const head = `big-result: ${bytes} bytes `;
  return bytes <= head.length ? head.slice(0, bytes) : head + 'x'.repeat(bytes - head.length);
}

/**
 * Runs the job for one call with its faults; resolves with the result the SDK should send. When
 * the call was cancelled and no fault keeps it going, it resolves at once with a result the SDK
 * drops (the SDK never answers an aborted request).
 */
export async function runJob(rt: ServeRuntime, call: JobCall, plan: JobPlan): Promise<TextResult> {
  const f = plan.faults;
  const cap = rt.caps.maxDurationMs;
  const transport = call.channel?.transport ?? 'stdio';
  const mark = (name: LiveFaultName, text: string) => rt.fault(name, call.id, transport, text);
  let durationMs = Math.min(plan.durationMs, cap);
  let everyMs = plan.progressEveryMs;
  if (f.has('late-result')) {
    durationMs = Math.min(plan.lateMs ?? FAULT_DEFAULTS.lateMs, cap);
    everyMs = 0;
    mark('late-result', `will answer at ${durationMs} ms, without progress, whatever the client does`);
  }
  if (f.has('no-progress')) {
    everyMs = 0;
    mark('no-progress', `silent for ${durationMs} ms, then the answer`);
  }
  if (f.has('keepalive-off')) {
    everyMs = 0;
    mark('keepalive-off', call.channel?.dropKeepAlives() ? `no SSE keep-alive comments for ${durationMs} ms` : 'keep-alives exist only on HTTP response streams: on stdio this is a quiet call');
  }
  if (f.has('progress-storm')) {
    everyMs = FAULT_DEFAULTS.stormEveryMs;
    durationMs = cap;
    mark('progress-storm', `progress every ${everyMs} ms until the cancel or the ${cap} ms cap`);
  }
  if (f.has('no-first-byte')) {
    const held = call.channel?.holdFirstByte(durationMs) ?? false;
    if (!held) everyMs = 0;
    mark('no-first-byte', held ? `no byte of the response for ${durationMs} ms` : `stdio has no first byte to hold: silent for ${durationMs} ms`);
  }
  const ignoreCancel = f.has('ignore-cancel') || f.has('late-result');
  const onAbort = () => {
    if (f.has('crash-on-cancel')) {
      mark('crash-on-cancel', `the cancellation arrived: exiting with code ${FAULT_DEFAULTS.crashExitCode}`);
      rt.recorder.frame({ direction: 'meta', transport, event: 'exit', code: FAULT_DEFAULTS.crashExitCode, text: 'crash-on-cancel' });
      rt.recorder.close();
      process.exit(FAULT_DEFAULTS.crashExitCode);
    }
    if (ignoreCancel) mark(f.has('ignore-cancel') ? 'ignore-cancel' : 'late-result', 'the cancellation arrived and is ignored: the work goes on');
  };
  call.signal.addEventListener('abort', onAbort, { once: true });
  // A cancel that landed before the handler ran never fires the listener: act on it now.
  if (call.signal.aborted) onAbort();

  const start = Date.now();
  const endAt = start + durationMs;
  let cut = false;
  let cutTimer: ReturnType<typeof setTimeout> | undefined;
  if (f.has('stream-cut')) {
    const cutAt = Math.max(1, Math.floor(durationMs / 2));
    cutTimer = setTimeout(() => {
      cut = call.channel?.cutStream() ?? false;
      mark('stream-cut', cut ? `ended the response stream at ${cutAt} ms, before the result` : 'a stream cut needs Streamable HTTP: on stdio the call runs normally');
    }, cutAt);
  }
  let progress = 0;
  try {
    for (;;) {
      const now = Date.now();
      if (now >= endAt) break;
      const next = everyMs > 0 ? Math.min(start + (progress + 1) * everyMs, endAt) : endAt;
      await sleep(next - now, ignoreCancel ? undefined : call.signal);
      if (call.signal.aborted && !ignoreCancel) return { content: [{ type: 'text', text: 'cancelled' }] };
      if (cut) return { content: [{ type: 'text', text: 'stream cut' }] };
      if (Date.now() >= endAt) break;
      if (everyMs > 0 && call.progressToken !== undefined && !call.signal.aborted) {
        progress++;
        await call.notify({ method: 'notifications/progress', params: { progressToken: call.progressToken, progress, message: `${plan.tool}: step ${progress}` } });
      }
    }
  } finally {
    if (cutTimer) clearTimeout(cutTimer);
    call.signal.removeEventListener('abort', onAbort);
  }
  if (cut) return { content: [{ type: 'text', text: 'stream cut' }] };
  const bytes = f.has('big-result') ? Math.min(plan.resultBytes ?? FAULT_DEFAULTS.resultBytes, rt.caps.maxResultBytes) : 0;
  const text = bytes > 0 ? bigText(bytes) : `${plan.tool} done after ${Date.now() - start} ms${progress ? ` (${progress} progress notifications)` : ''}`;
  if (bytes > 0) mark('big-result', `a result of ${bytes} bytes`);
  const result: TextResult = { content: [{ type: 'text', text }] };
  if (call.signal.aborted && ignoreCancel) {
    // The SDK never answers an aborted request, so the late answer is written on the transport here.
    // Shaped as the era's result: under 2026-07-28 a tools/call result names its resultType ("complete").
    const written = call.channel?.writeRaw({ jsonrpc: '2.0', id: call.id, result: call.era === 'modern' ? { resultType: 'complete', ...result } : result }) ?? false;
    mark(f.has('ignore-cancel') ? 'ignore-cancel' : 'late-result', written ? 'answered after the cancellation' : 'tried to answer after the cancellation: the response stream is closed, so nothing reached the client');
    return result;
  }
  if (f.has('duplicate-response') && call.channel) {
    call.channel.afterResponse((response) => [response]);
    mark('duplicate-response', 'the response goes out twice with the same id');
  }
  if (f.has('response-for-unknown-id') && call.channel) {
    const unknown = `mcp-lab-unknown-${String(call.id)}`;
    call.channel.afterResponse((response) => [{ ...response, id: unknown }]);
    mark('response-for-unknown-id', `a second response with id ${JSON.stringify(unknown)}, which the client never used`);
  }
  if (f.has('progress-after-result') && call.channel) {
    const token = call.progressToken;
    if (token === undefined) mark('progress-after-result', 'the call had no progressToken: no progress to send after the result');
    else {
      call.channel.afterResponse(() => [{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: progress + 1, message: 'after the result' } }]);
      mark('progress-after-result', 'a progress notification follows the result');
    }
  }
  return result;
}
