import type { Json } from '../../sim/types';
import type { RequestId, Revision } from '../../sim/mcp';
import { RULES } from '../../sim/races/rules';
import { checkMessage } from '../schemaCheck';
import type { Direction, MessageEntry, MetaEntry, Transcript, TranscriptEntry } from './types';

/**
 * The transcript checker: the observed messages themselves (never a re-simulation: a real
 * server's bug shows as it happened) against the named rules the labs teach. Each finding names
 * its check, the lab rule, the entries involved (indices into `Transcript.entries`, for selecting
 * them on the timeline), the request ids, and the built-in scenario that teaches the rule.
 *
 * Timing judgements ("well after a cancellation") allow `allowanceMs` (default 1000 ms) for the
 * latency between the two peers: a transcript recorded on one side sees the other side's
 * messages late, so a response 20 ms after a cancel is a race, not a bug.
 */

/** How bad a finding is. `error`: a MUST broken; `warning`: a SHOULD broken or a risk (possible double execution); `info`: worth knowing, not broken. */
export type Severity = 'error' | 'warning' | 'info';

/** Every check the checker runs. */
export type CheckId =
  | 'late-after-cancel'
  | 'message-after-stream-close'
  | 'progress-after-completion'
  | 'progress-not-increasing'
  | 'progress-unknown-token'
  | 'cancel-unknown-id'
  | 'cancel-finished-id'
  | 'outlived-maximum'
  | 'timeout-without-cancel'
  | 'duplicate-call'
  | 'reconnect-lockstep'
  | 'reconnect-no-cap'
  | 'http-cancel-post-2026'
  | 'schema';

/** The built-in scenario that teaches a rule: lab, scenario id, and the in-app link (with the overrides that show the bug). */
export interface Teaches {
  lab: 'races' | 'ledger' | 'flow' | 'resilience';
  scenario: string;
  href: string;
}

/** What a check is: its title, the lab rule id it applies (a `RULES` id of the races lab where one exists), the rule's text, its usual severity and the scenario that teaches it. */
export interface CheckDefinition {
  id: CheckId;
  title: string;
  rule: string;
  ruleText: string;
  severity: Severity;
  teaches: Teaches;
}

const teach = (lab: Teaches['lab'], scenario: string, query = ''): Teaches => ({ lab, scenario, href: `#/${lab}/${scenario}${query ? `?${query}` : ''}` });
const ruleText = (id: string) => RULES[id]?.text ?? '';

/** The catalogue of checks, keyed by id. */
export const CHECKS: Record<CheckId, CheckDefinition> = {
  'late-after-cancel': {
    id: 'late-after-cancel',
    title: 'The server kept working after the cancellation',
    rule: 'cancel.receiver-stops',
    ruleText: ruleText('cancel.receiver-stops'),
    severity: 'warning',
    teaches: teach('races', 'A-cancel-then-complete', 'policy.respondAfterCancel=true'),
  },
  'message-after-stream-close': {
    id: 'message-after-stream-close',
    title: 'A message for a request after its HTTP response stream closed (2026-07-28)',
    rule: 'cancel.http-2026',
    ruleText: ruleText('cancel.http-2026'),
    severity: 'error',
    teaches: teach('races', 'D-http-stream-close', 'policy.respondAfterCancel=true'),
  },
  'progress-after-completion': {
    id: 'progress-after-completion',
    title: 'Progress after the request completed',
    rule: 'progress.after-end',
    ruleText: ruleText('progress.after-end'),
    severity: 'error',
    teaches: teach('races', 'C-progress-idle-maximum'),
  },
  'progress-not-increasing': {
    id: 'progress-not-increasing',
    title: 'Progress that does not increase',
    rule: 'progress.increase',
    ruleText: ruleText('progress.increase'),
    severity: 'error',
    teaches: teach('races', 'C-progress-idle-maximum'),
  },
  'progress-unknown-token': {
    id: 'progress-unknown-token',
    title: 'Progress for a token no request carried',
    rule: 'progress.needs-token',
    ruleText: ruleText('progress.needs-token'),
    severity: 'error',
    teaches: teach('races', 'F2-progress-forever', 'policy.progressTokenOmitted=true'),
  },
  'cancel-unknown-id': {
    id: 'cancel-unknown-id',
    title: 'A cancellation for an id no request used',
    rule: 'cancel.ignore-invalid',
    ruleText: ruleText('cancel.ignore-invalid'),
    severity: 'warning',
    teaches: teach('races', 'E-invalid-cancels'),
  },
  'cancel-finished-id': {
    id: 'cancel-finished-id',
    title: 'A cancellation for a request that had already finished',
    rule: 'cancel.complete-first',
    ruleText: ruleText('cancel.complete-first'),
    severity: 'warning',
    teaches: teach('races', 'B-complete-then-cancel'),
  },
  'outlived-maximum': {
    id: 'outlived-maximum',
    title: 'A call outlived the stated maximum timeout',
    rule: 'timeout.max',
    ruleText: ruleText('timeout.max'),
    severity: 'warning',
    teaches: teach('races', 'C-progress-idle-maximum', 'policy.idleTimeoutOnly=true'),
  },
  'timeout-without-cancel': {
    id: 'timeout-without-cancel',
    title: 'The client timed out without a cancellation signal',
    rule: 'timeout.idle',
    ruleText: ruleText('timeout.idle'),
    severity: 'warning',
    teaches: teach('races', 'F3-late-result', 'policy.timeoutWithoutCancel=true'),
  },
  'duplicate-call': {
    id: 'duplicate-call',
    title: 'The same tools/call under a new id while the first may still run (possible double execution)',
    rule: 'idempotency.key',
    ruleText: 'A new JSON-RPC id is not deduplication: a retried or re-dispatched mutation runs again unless the server deduplicates it by an idempotency key.',
    severity: 'warning',
    teaches: teach('ledger', 'C-no-key-retries'),
  },
  'reconnect-lockstep': {
    id: 'reconnect-lockstep',
    title: 'Reconnects in lockstep (equal or exactly doubling gaps, no jitter)',
    rule: 'reconnect.jitter',
    ruleText: 'Reconnect delays need jitter (full, equal or decorrelated): without it every client that dropped together comes back in the same millisecond.',
    severity: 'warning',
    teaches: teach('flow', 'F3-restart-herd'),
  },
  'reconnect-no-cap': {
    id: 'reconnect-no-cap',
    title: 'Reconnects without a cap',
    rule: 'reconnect.cap',
    ruleText: 'Reconnect attempts need a cap on the delay and on the attempts (or a budget): an uncapped loop hammers a server that is down.',
    severity: 'warning',
    teaches: teach('flow', 'F3-restart-herd'),
  },
  'http-cancel-post-2026': {
    id: 'http-cancel-post-2026',
    title: 'notifications/cancelled POSTed on Streamable HTTP under 2026-07-28',
    rule: 'cancel.http-2026',
    ruleText: ruleText('cancel.http-2026'),
    severity: 'error',
    teaches: teach('races', 'D-http-stream-close', 'policy.httpPostsCancel=true'),
  },
  schema: {
    id: 'schema',
    title: 'A message fails the official schema of its revision',
    rule: 'schema',
    ruleText: 'Every message validates against the official MCP JSON Schema of the revision in use (vendored in src/wire/mcp-schema).',
    severity: 'error',
    teaches: teach('races', 'E-invalid-cancels'),
  },
};

/** One finding. */
export interface Finding {
  check: CheckId;
  rule: string;
  title: string;
  severity: Severity;
  /** What happened, with the times and ids. */
  message: string;
  /** Indices into `Transcript.entries`, in time order: the messages (and meta lines) involved. */
  entries: number[];
  /** The JSON-RPC ids involved. */
  requestIds: RequestId[];
  /** Virtual time of the first entry involved (ms). */
  atMs: number;
  teaches: Teaches;
}

/** Options of `checkTranscript`. */
export interface CheckOptions {
  /** Latency allowance for "well after" (ms). Default 1000. */
  allowanceMs?: number;
  /** The maximum a call may live (ms); `outlived-maximum` runs only when set. */
  maxMs?: number | null;
  /** Failed reconnect attempts in a row beyond which `reconnect-no-cap` fires. Default 10. */
  maxReconnectAttempts?: number;
  /** A reconnect gap beyond this, after gaps that kept growing, means the delay has no cap (ms). Default 60000. */
  maxReconnectDelayMs?: number;
  /** Run the schema check (default true). */
  schema?: boolean;
}

/** The checker's result. */
export interface CheckReport {
  revision: Revision;
  revisionNote: string;
  options: { allowanceMs: number; maxMs: number | null; maxReconnectAttempts: number; maxReconnectDelayMs: number; schema: boolean };
  /** Sorted by time, then check id. */
  findings: Finding[];
  counts: Record<Severity, number>;
  /** True when no finding is an error or a warning (what `npm run check` exits 0 on). */
  clean: boolean;
  /** How many messages, calls (requests) and meta lines were checked. */
  checked: { messages: number; requests: number; meta: number };
}

/** A request as the checker tracks it. */
interface Call {
  id: RequestId;
  idKey: string;
  direction: Direction;
  entry: MessageEntry;
  method: string;
  tool: string | null;
  argsCanonical: string | null;
  hasIdempotencyKey: boolean;
  tokenKey: string | null;
  response: MessageEntry | null;
  cancels: MessageEntry[];
  streamClose: MetaEntry | null;
  timeout: MetaEntry | null;
}

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const validId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/** JSON text with object keys sorted, so equal arguments compare equal whatever their key order. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

const IDEMPOTENCY_KEY = /(^|\/)(idempotencyKey|idempotency_key|Idempotency-Key)$/i;

/** Whether a tools/call carries an idempotency key (an argument or a `_meta` key named idempotencyKey / idempotency_key / Idempotency-Key). */
export function hasIdempotencyKey(params: Record<string, Json>): boolean {
  const args = isObject(params.arguments) ? params.arguments : {};
  const meta = isObject(params._meta) ? params._meta : {};
  return Object.keys(args).some((k) => IDEMPOTENCY_KEY.test(k)) || Object.keys(meta).some((k) => IDEMPOTENCY_KEY.test(k));
}

/** Appends to the list under `key` (in place: a call with 100k late progress stays linear). */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V, first?: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, first === undefined ? [value] : [first, value]);
}

const opposite = (d: Direction): Direction => (d === 'c2s' ? 's2c' : 'c2s');
const fmtId = (id: unknown) => JSON.stringify(id) ?? String(id);

/**
 * Runs every check over `t` and returns the findings (sorted by time). Pure apart from the schema
 * validator's compile cache. The schema check uses `checkMessage` of `src/wire/schemaCheck.ts`
 * with `t.revision` and, for a response, the method of the request it answers.
 */
export function checkTranscript(t: Transcript, options: CheckOptions = {}): CheckReport {
  const opts = {
    allowanceMs: options.allowanceMs ?? 1000,
    maxMs: options.maxMs ?? null,
    maxReconnectAttempts: options.maxReconnectAttempts ?? 10,
    maxReconnectDelayMs: options.maxReconnectDelayMs ?? 60000,
    schema: options.schema ?? true,
  };
  const findings: Finding[] = [];
  /** `at`: the entry where the rule breaks (its time is the finding's `atMs`); default the first entry. */
  const add = (check: CheckId, message: string, entries: TranscriptEntry[], requestIds: RequestId[], severity?: Severity, at?: TranscriptEntry) => {
    const sorted = [...new Set(entries.map((e) => e.index))].sort((a, b) => a - b);
    const def = CHECKS[check];
    findings.push({ check, rule: def.rule, title: def.title, severity: severity ?? def.severity, message, entries: sorted, requestIds, atMs: at?.atMs ?? t.entries[sorted[0]]?.atMs ?? 0, teaches: def.teaches });
  };

  const calls: Call[] = [];
  /** Latest call per direction + id. */
  const latest = new Map<string, Call>();
  /** Latest call per direction + progress token. */
  const byToken = new Map<string, Call>();
  const callOf = (direction: Direction, id: unknown) => latest.get(`${direction}|${fmtId(id)}`);
  const respondsTo = new Map<number, string>();
  const progressSeen = new Map<Call, MessageEntry>();
  const nonIncreasing = new Map<Call, MessageEntry[]>();
  const afterEnd = new Map<Call, MessageEntry[]>();
  const lateAfterCancel = new Map<Call, MessageEntry[]>();
  const afterClose = new Map<Call, MessageEntry[]>();
  const unknownTokens = new Map<string, MessageEntry[]>();
  let messages = 0;
  let metaCount = 0;

  /** The server's message `m` belongs to `call` (a response or a progress for its token): flag it if it comes well after a cancel or a stream close. */
  const afterSignals = (call: Call, m: MessageEntry) => {
    const cancel = call.cancels[0];
    if (cancel && m.atMs > cancel.atMs + opts.allowanceMs) pushTo(lateAfterCancel, call, m);
    if (call.streamClose && t.revision === '2026-07-28' && m.atMs > call.streamClose.atMs + opts.allowanceMs) pushTo(afterClose, call, m);
  };

  for (const e of t.entries) {
    if (e.type === 'meta') {
      metaCount++;
      if (e.kind === 'stream-close') {
        const call = e.requestId !== undefined ? callOf('c2s', e.requestId) : undefined;
        if (call && !call.streamClose) call.streamClose = e;
      } else if (e.kind === 'client-timeout') {
        let call = e.requestId !== undefined ? callOf('c2s', e.requestId) : undefined;
        if (!call && e.requestId === undefined) {
          const open = calls.filter((c) => c.direction === 'c2s' && c.response === null && c.timeout === null && c.method !== 'subscriptions/listen');
          if (open.length === 1) call = open[0];
        }
        if (call && !call.timeout) call.timeout = e;
      }
      continue;
    }
    if (e.type !== 'message') continue;
    messages++;
    const m = isObject(e.message) ? e.message : null;
    if (!m) continue;
    if (e.kind === 'request' && validId(m.id)) {
      const params = isObject(m.params) ? m.params : {};
      const meta = isObject(params._meta) ? params._meta : {};
      const isTool = m.method === 'tools/call';
      const call: Call = {
        id: m.id,
        idKey: fmtId(m.id),
        direction: e.direction,
        entry: e,
        method: m.method as string,
        tool: isTool && typeof params.name === 'string' ? params.name : null,
        argsCanonical: isTool ? canonicalJson(params.arguments ?? {}) : null,
        hasIdempotencyKey: isTool ? hasIdempotencyKey(params) : false,
        tokenKey: validId(meta.progressToken) ? fmtId(meta.progressToken) : null,
        response: null,
        cancels: [],
        streamClose: null,
        timeout: null,
      };
      calls.push(call);
      latest.set(`${e.direction}|${call.idKey}`, call);
      if (call.tokenKey !== null) byToken.set(`${e.direction}|${call.tokenKey}`, call);
      continue;
    }
    if (e.kind === 'response') {
      const call = callOf(opposite(e.direction), m.id);
      if (!call) continue;
      respondsTo.set(e.index, call.method);
      afterSignals(call, e);
      if (call.response === null) call.response = e;
      continue;
    }
    if (e.kind !== 'notification') continue;
    const params = isObject(m.params) ? m.params : {};
    if (m.method === 'notifications/progress') {
      if (!validId(params.progressToken)) continue; // the schema check reports it
      const call = byToken.get(`${opposite(e.direction)}|${fmtId(params.progressToken)}`);
      if (!call) {
        const k = fmtId(params.progressToken);
        pushTo(unknownTokens, k, e);
        continue;
      }
      afterSignals(call, e);
      if (call.response !== null && e.atMs > call.response.atMs) pushTo(afterEnd, call, e);
      const prev = progressSeen.get(call);
      const value = params.progress;
      if (prev && typeof value === 'number') {
        const pv = (prev.message as { params: { progress: number } }).params.progress;
        if (!(value > pv)) pushTo(nonIncreasing, call, e, prev);
      }
      if (typeof value === 'number') progressSeen.set(call, e);
      continue;
    }
    if (m.method === 'notifications/cancelled') {
      if (!validId(params.requestId)) continue; // malformed: the schema check reports it
      const call = callOf(e.direction, params.requestId) ?? (e.direction === 's2c' ? callOf('c2s', params.requestId) : undefined);
      if (!call) {
        add('cancel-unknown-id', `${e.direction === 'c2s' ? 'The client' : 'The server'} cancels request ${fmtId(params.requestId)} at ${e.atMs} ms, but no request with that id was sent before: the receiver ignores it.`, [e], [params.requestId]);
        continue;
      }
      if (call.direction !== e.direction) continue; // a server ending a client's listen stream (2026-07-28 stdio)
      if (call.response !== null && e.atMs > call.response.atMs + opts.allowanceMs) {
        add(
          'cancel-finished-id',
          `Request ${call.idKey} was answered at ${call.response.atMs} ms; its cancellation comes ${e.atMs - call.response.atMs} ms later (beyond the ${opts.allowanceMs} ms allowance): the response stands and the cancel is ignored.`,
          [call.response, e],
          [call.id],
          undefined,
          e,
        );
      }
      call.cancels.push(e);
      if (t.revision === '2026-07-28' && e.direction === 'c2s' && (e.transport === 'streamable-http' || call.entry.transport === 'streamable-http')) {
        add(
          'http-cancel-post-2026',
          `The client POSTs notifications/cancelled for ${call.idKey} at ${e.atMs} ms on Streamable HTTP under 2026-07-28, where closing the request's response stream is the cancellation and no notification is sent.`,
          [call.entry, e],
          [call.id],
          undefined,
          e,
        );
      }
    }
  }

  for (const [call, list] of lateAfterCancel) {
    const cancel = call.cancels[0];
    const what = list.map((m) => `${m.kind === 'response' ? 'the response' : 'progress'} at ${m.atMs} ms`).join(', ');
    add(
      'late-after-cancel',
      `Request ${call.idKey} was cancelled at ${cancel.atMs} ms, yet the server sent ${what} — more than ${opts.allowanceMs} ms later, so it kept working: either it ignored the cancellation (allowed only for work that cannot be stopped; the client must drop the response) or it accepted it and still answered (a bug).`,
      [call.entry, cancel, ...list],
      [call.id],
      undefined,
      list[0],
    );
  }
  for (const [call, list] of afterClose) {
    const close = call.streamClose as MetaEntry;
    add(
      'message-after-stream-close',
      `The response stream of ${call.idKey} closed at ${close.atMs} ms (${close.cause === 'network' ? 'a network drop' : 'the client'}), which under 2026-07-28 cancels it; the server still wrote ${list.map((m) => `${m.kind === 'response' ? 'its response' : 'progress'} at ${m.atMs} ms`).join(', ')}.`,
      [call.entry, close, ...list],
      [call.id],
      undefined,
      list[0],
    );
  }
  for (const [call, list] of afterEnd) {
    add('progress-after-completion', `Request ${call.idKey} completed at ${(call.response as MessageEntry).atMs} ms; progress for its token still came at ${list.map((m) => `${m.atMs} ms`).join(', ')}.`, [call.response as MessageEntry, ...list], [call.id], undefined, list[0]);
  }
  for (const [call, list] of nonIncreasing) {
    const values = list.map((m) => (m.message as { params: { progress: number } }).params.progress);
    add('progress-not-increasing', `Progress for ${call.idKey} does not increase: ${values.join(' → ')} (each value MUST be greater than the one before).`, list, [call.id], undefined, list[1]);
  }
  for (const [token, list] of unknownTokens) {
    add('progress-unknown-token', `Progress for token ${token} (${list.length} notification${list.length === 1 ? '' : 's'}, first at ${list[0].atMs} ms), but no request carried that progressToken.`, list, []);
  }

  const endOfTranscript = t.entries.length ? t.entries[t.entries.length - 1].atMs : 0;
  for (const call of calls) {
    if (call.direction !== 'c2s') continue;
    const ends = [call.response?.atMs, call.cancels[0]?.atMs, call.streamClose?.atMs, call.timeout?.atMs].filter((x): x is number => x !== undefined);
    // Maximum: requests other than the long-lived listen stream.
    if (opts.maxMs !== null && call.method !== 'subscriptions/listen') {
      const end = ends.length ? Math.min(...ends) : null;
      const lived = (end ?? endOfTranscript) - call.entry.atMs;
      if (lived > opts.maxMs) {
        add(
          'outlived-maximum',
          end !== null
            ? `Request ${call.idKey} (${call.method}) lived ${lived} ms, from ${call.entry.atMs} ms to ${end} ms, beyond the stated maximum of ${opts.maxMs} ms.`
            : `Request ${call.idKey} (${call.method}) is still open at the end of the transcript, ${lived} ms after it was sent: beyond the stated maximum of ${opts.maxMs} ms.`,
          [call.entry, ...(call.response ? [call.response] : [])],
          [call.id],
        );
      }
    }
    if (call.timeout) {
      const limit = call.timeout.atMs + opts.allowanceMs;
      const signalled = call.cancels.some((c) => c.atMs <= limit) || (call.streamClose !== null && call.streamClose.atMs <= limit);
      if (!signalled) {
        add(
          'timeout-without-cancel',
          `The client timed out request ${call.idKey} at ${call.timeout.atMs} ms but sent no cancellation signal (notifications/cancelled, or on HTTP the stream close) within ${opts.allowanceMs} ms: the server keeps working blind${call.response && call.response.atMs > call.timeout.atMs ? ` — its response arrived at ${call.response.atMs} ms` : ''}.`,
          [call.entry, call.timeout, ...(call.response ? [call.response] : [])],
          [call.id],
          undefined,
          call.timeout,
        );
      }
    }
  }

  // Duplicate tools/call: same tool + canonical arguments under a new id while an earlier one may still run.
  const groups = new Map<string, Call[]>();
  for (const call of calls) {
    if (call.direction !== 'c2s' || call.tool === null) continue;
    const sig = `${call.tool}\u0000${call.argsCanonical}`;
    const group = groups.get(sig) ?? [];
    group.push(call);
    groups.set(sig, group);
  }
  for (const group of groups.values()) {
    // Earlier calls that may still run when the next one starts (no response yet); pruned as responses come in.
    let running: Call[] = [];
    const inGroup = new Set<Call>();
    for (const b of group) {
      running = running.filter((a) => a.response === null || a.response.atMs > b.entry.atMs);
      const others = running.filter((a) => a.idKey !== b.idKey);
      if (others.length > 0) {
        for (const a of others) inGroup.add(a);
        inGroup.add(b);
      }
      running.push(b);
    }
    const overlapping = group.filter((c) => inGroup.has(c));
    if (overlapping.length === 0) continue;
    const keyed = overlapping.every((c) => c.hasIdempotencyKey);
    const someKeyed = overlapping.some((c) => c.hasIdempotencyKey);
    const ids = overlapping.map((c) => c.id);
    add(
      'duplicate-call',
      `${overlapping.length} tools/call "${overlapping[0].tool}" with the same arguments under ids ${ids.map(fmtId).join(', ')}, each sent while an earlier one had no response: possible double execution. ${keyed ? 'Every call carries an idempotency key, so the server can deduplicate — check that it does.' : someKeyed ? 'Only some carry an idempotency key.' : 'No idempotency key is present.'}`,
      overlapping.map((c) => c.entry),
      ids,
      keyed ? 'info' : 'warning',
      overlapping[1].entry,
    );
  }

  reconnectChecks(t, opts, add);

  if (opts.schema) {
    for (const e of t.entries) {
      if (e.type !== 'message') continue;
      const result = checkMessage(t.revision, e.message, respondsTo.get(e.index));
      if (!result.valid) {
        const id = isObject(e.message) && validId(e.message.id) ? [e.message.id] : [];
        add('schema', `The message at ${e.atMs} ms (line ${e.line}) fails ${result.def} of ${t.revision}: ${result.errors.slice(0, 3).join('; ')}${result.errors.length > 3 ? ` (+${result.errors.length - 3} more)` : ''}.`, [e], id);
      }
    }
  }

  findings.sort((a, b) => a.atMs - b.atMs || (a.entries[0] ?? 0) - (b.entries[0] ?? 0) || a.check.localeCompare(b.check));
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return {
    revision: t.revision,
    revisionNote: t.revisionNote,
    options: opts,
    findings,
    counts,
    clean: counts.error === 0 && counts.warning === 0,
    checked: { messages, requests: calls.length, meta: metaCount },
  };
}

/**
 * Reconnect checks over the meta lines: after a `disconnect` (or a failed connect), each
 * `connect`/`connect-failed` is an attempt; an episode ends at a successful connect.
 * Lockstep: an episode of ≥ 3 attempts whose gaps are all equal or each exactly double the one
 * before, or ≥ 3 episodes whose first gap is the same to the millisecond. No cap: more failed
 * attempts in a row than `maxReconnectAttempts`, or gaps that keep growing past `maxReconnectDelayMs`.
 */
function reconnectChecks(
  t: Transcript,
  opts: { maxReconnectAttempts: number; maxReconnectDelayMs: number },
  add: (check: CheckId, message: string, entries: TranscriptEntry[], requestIds: RequestId[], severity?: Severity) => void,
) {
  const meta = t.entries.filter((e): e is MetaEntry => e.type === 'meta' && (e.kind === 'connect' || e.kind === 'connect-failed' || e.kind === 'disconnect'));
  const episodes: { start: MetaEntry; attempts: MetaEntry[] }[] = [];
  let current: { start: MetaEntry; attempts: MetaEntry[] } | null = null;
  for (const e of meta) {
    if (e.kind === 'disconnect') {
      if (!current) current = { start: e, attempts: [] };
      continue;
    }
    if (!current) {
      if (e.kind === 'connect-failed') current = { start: e, attempts: [] };
      continue;
    }
    current.attempts.push(e);
    if (e.kind === 'connect') {
      episodes.push(current);
      current = null;
    }
  }
  if (current && current.attempts.length > 0) episodes.push(current);
  const gapsOf = (ep: { start: MetaEntry; attempts: MetaEntry[] }) => ep.attempts.map((a, i) => a.atMs - (i === 0 ? ep.start : ep.attempts[i - 1]).atMs);
  for (const ep of episodes) {
    const gaps = gapsOf(ep);
    if (gaps.length >= 3) {
      const equal = gaps.every((g) => g === gaps[0]);
      const doubling = gaps.every((g, i) => i === 0 || g === 2 * gaps[i - 1]);
      if (gaps[0] > 0 && (equal || doubling)) {
        add('reconnect-lockstep', `${gaps.length} reconnect attempts from ${ep.start.atMs} ms with gaps ${gaps.join(', ')} ms: ${equal ? 'all equal' : 'each exactly double the last'}, so there is no jitter and every client that dropped together retries together.`, [ep.start, ...ep.attempts], []);
      }
    }
    let failedRun = 0;
    let maxRun = 0;
    for (const a of ep.attempts) {
      failedRun = a.kind === 'connect-failed' ? failedRun + 1 : 0;
      maxRun = Math.max(maxRun, failedRun);
    }
    const growing = gaps.length >= 3 && gaps.every((g, i) => i === 0 || g > gaps[i - 1]);
    if (maxRun > opts.maxReconnectAttempts || (growing && gaps[gaps.length - 1] > opts.maxReconnectDelayMs)) {
      add(
        'reconnect-no-cap',
        maxRun > opts.maxReconnectAttempts
          ? `${maxRun} failed reconnect attempts in a row from ${ep.start.atMs} ms (more than ${opts.maxReconnectAttempts}): the loop has no attempt cap.`
          : `Reconnect gaps keep growing (${gaps.join(', ')} ms) past ${opts.maxReconnectDelayMs} ms: the backoff has no delay cap.`,
        [ep.start, ...ep.attempts],
        [],
      );
    }
  }
  if (episodes.length >= 3) {
    const firsts = episodes.map((ep) => gapsOf(ep)[0]);
    if (firsts[0] > 0 && firsts.every((g) => g === firsts[0]) && !episodes.some((ep) => gapsOf(ep).length >= 3)) {
      add('reconnect-lockstep', `${episodes.length} reconnects, each exactly ${firsts[0]} ms after its drop: no jitter.`, episodes.flatMap((ep) => [ep.start, ep.attempts[0]]), []);
    }
  }
}
