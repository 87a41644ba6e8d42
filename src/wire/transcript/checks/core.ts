import type { Json } from '../../../sim/types';
import type { RequestId, Revision } from '../../../sim/mcp';
import { RULES } from '../../../sim/races/rules';
import type { LabId } from '../../../sim/labIds';
import type { Direction, MessageEntry, MetaEntry, TranscriptEntry } from '../types';

/**
 * The shared floor of the transcript checks (`../checks.ts` runs them): the finding and check
 * types, the call index every check reads, and the small helpers. One check is one module
 * (`{ def, visit?, finish? }`) in this folder; the driver builds the call index once, in one pass
 * over the entries in time order, and hands each check every entry with what the index resolved
 * for it. A check reads a message's content only while visiting it (the streaming `check` drops
 * message bodies after the visit), and keeps its own state between visits.
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
  | 'response-unknown-id'
  | 'response-id-type'
  | 'response-twice'
  | 'idempotency-key-conflict'
  | 'content-length-framing'
  | 'http-headers-2026'
  | 'http-header-not-rejected'
  | 'capability-undeclared'
  | 'task-cancel-notification'
  | 'subscription-unrequested'
  | 'schema';

/** The built-in scenario that teaches a rule: lab, scenario id, and the in-app link (with the overrides that show the bug). */
export interface Teaches {
  lab: LabId;
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

/** The options with their defaults filled in (`CheckReport.options`). */
export interface ResolvedCheckOptions {
  allowanceMs: number;
  maxMs: number | null;
  maxReconnectAttempts: number;
  maxReconnectDelayMs: number;
  schema: boolean;
}

/** Fills in the defaults of `options`. */
export function resolveOptions(options: CheckOptions = {}): ResolvedCheckOptions {
  return {
    allowanceMs: options.allowanceMs ?? 1000,
    maxMs: options.maxMs ?? null,
    maxReconnectAttempts: options.maxReconnectAttempts ?? 10,
    maxReconnectDelayMs: options.maxReconnectDelayMs ?? 60000,
    schema: options.schema ?? true,
  };
}

/** A request as the call index tracks it (the fields the checks need, copied out of the message). */
export interface Call {
  id: RequestId;
  /** `JSON.stringify(id)`: `1` and `"1"` are distinct keys. */
  idKey: string;
  direction: Direction;
  entry: MessageEntry;
  method: string;
  tool: string | null;
  /** tools/call: the arguments as canonical JSON (`canonicalJson`). */
  argsCanonical: string | null;
  hasIdempotencyKey: boolean;
  /** tools/call: the idempotency key's value as canonical JSON, when one is carried. */
  idempotencyKey: string | null;
  /** The progress token the request carried (a valid id), or null. */
  token: RequestId | null;
  /** `fmtId(token)`. */
  tokenKey: string | null;
  /** The first response to it. */
  response: MessageEntry | null;
  /** Set when that response was a 2026-07-28 task handle (`result.resultType: "task"`, the tasks extension's CreateTaskResult): the request is over, its task goes on. */
  taskHandle: boolean;
  cancels: MessageEntry[];
  streamClose: MetaEntry | null;
  timeout: MetaEntry | null;
}

/**
 * A `Call` as the index builds it. A class, not an object literal: V8 watches a literal's
 * allocation site, and calls outlive a scavenge or two (the index keeps the answered ones for
 * `ANSWERED_CALLS_KEPT` answers), so it would allocate every later one straight into the old
 * generation, where each dies and waits for a mark-compact.
 */
class CallRecord implements Call {
  declare id: RequestId;
  declare idKey: string;
  declare direction: Direction;
  declare entry: MessageEntry;
  declare method: string;
  declare tool: string | null;
  declare argsCanonical: string | null;
  declare hasIdempotencyKey: boolean;
  declare idempotencyKey: string | null;
  declare token: RequestId | null;
  declare tokenKey: string | null;
  declare response: MessageEntry | null;
  declare taskHandle: boolean;
  declare cancels: MessageEntry[];
  declare streamClose: MetaEntry | null;
  declare timeout: MetaEntry | null;
  constructor(id: RequestId, direction: Direction, entry: MessageEntry, method: string, tool: string | null, argsCanonical: string | null, idempotencyKey: string | null, token: RequestId | null) {
    this.id = id;
    this.idKey = fmtId(id);
    this.direction = direction;
    this.entry = entry;
    this.method = method;
    this.tool = tool;
    this.argsCanonical = argsCanonical;
    this.hasIdempotencyKey = idempotencyKey !== null;
    this.idempotencyKey = idempotencyKey;
    this.token = token;
    this.tokenKey = token !== null ? fmtId(token) : null;
    this.response = null;
    this.taskHandle = false;
    this.cancels = NO_CANCELS;
    this.streamClose = null;
    this.timeout = null;
  }
}

/**
 * What the index resolved for one entry, handed to every check's `visit`. For a response,
 * progress or cancellation the index is as it stood *before* the entry (the entry is applied
 * after every check saw it: a response's `call.response` is still the earlier one, or null); a
 * request is added before the checks see it (`previous`: the call that had the same direction and
 * id before).
 */
export type Observation =
  | { kind: 'request'; call: Call; previous: Call | undefined }
  | { kind: 'response'; call: Call | undefined }
  | { kind: 'progress'; call: Call | undefined; tokenKey: string; progress: unknown }
  | { kind: 'cancel'; call: Call | undefined; requestId: RequestId }
  | { kind: 'meta' }
  | { kind: 'other' };

/** What a check's `visit` and `finish` are given. */
export interface CheckContext {
  revision: Revision;
  opts: ResolvedCheckOptions;
  index: CallIndex;
  /** Time of the last entry (ms); set before `finish`. */
  endMs: number;
  /**
   * Records a finding of `check`. `entries`: those involved (any order, duplicates dropped);
   * `severity` overrides the check's; `at`: the entry where the rule breaks (its time is the
   * finding's `atMs`; default the first entry).
   */
  add(check: CheckId, message: string, entries: readonly TranscriptEntry[], requestIds: RequestId[], severity?: Severity, at?: TranscriptEntry): void;
}

/**
 * One check: its definition, `visit` (each entry in time order, with what the index resolved;
 * `m`: the message object, or null for meta, stderr and non-object messages) and `finish` (after
 * the last entry, for checks that judge the whole run).
 */
export interface CheckModule {
  def: CheckDefinition;
  /** A fresh instance per run (checks keep state between visits). */
  create(): { visit?(e: TranscriptEntry, m: Record<string, Json> | null, o: Observation, ctx: CheckContext): void; finish?(ctx: CheckContext): void };
}

export function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A JSON-RPC id the MCP schema allows: a string or an integer. */
export const validId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

export const opposite = (d: Direction): Direction => (d === 'c2s' ? 's2c' : 'c2s');
/** An id as the reader sees it: `1`, `"1"` (a finite number's JSON text is its `String`). */
export const fmtId = (id: unknown) => (typeof id === 'number' && Number.isFinite(id) ? String(id) : (JSON.stringify(id) ?? String(id)));

/** The observations that carry nothing but their kind (one object each, shared: `Observation`s are read, never changed). */
const META: Observation = { kind: 'meta' };
const OTHER: Observation = { kind: 'other' };
/** What an absent `params` or `_meta` reads as. */
const NO_FIELDS: Record<string, Json> = Object.freeze({}) as Record<string, Json>;
/** The cancels of a call that has none yet (shared; `apply` gives a call its own list at its first cancel). */
const NO_CANCELS: MessageEntry[] = Object.freeze([]) as unknown as MessageEntry[];

/** JSON text with object keys sorted, so equal arguments compare equal whatever their key order. */
export function canonicalJson(value: Json): string {
  // Written into one string as it goes (no array of parts per object: this runs for every tools/call).
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += canonicalJson(value[i]) ?? '';
    }
    return `${out}]`;
  }
  const keys = Object.keys(value);
  if (keys.length > 1) keys.sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ',';
    out += `${JSON.stringify(keys[i])}:${canonicalJson(value[keys[i]])}`;
  }
  return `${out}}`;
}

const IDEMPOTENCY_KEY = /(^|\/)(idempotencyKey|idempotency_key|Idempotency-Key)$/i;

/** Whether a tools/call carries an idempotency key (an argument or a `_meta` key named idempotencyKey / idempotency_key / Idempotency-Key). */
export function hasIdempotencyKey(params: Record<string, Json>): boolean {
  return idempotencyKeyOf(params) !== null;
}

/** The value of a tools/call's idempotency key (argument first, then `_meta`) as canonical JSON, or null when it carries none. */
export function idempotencyKeyOf(params: Record<string, Json>): string | null {
  return idempotencyKeyIn(params.arguments) ?? idempotencyKeyIn(params._meta);
}

/** The first key of `bag` (in key order) named as an idempotency key: its value as canonical JSON, or null. */
function idempotencyKeyIn(bag: Json | undefined): string | null {
  if (!isObject(bag)) return null;
  // Every name the pattern takes is 14 or more characters long: shorter keys need no test.
  for (const key in bag) if (key.length >= 14 && IDEMPOTENCY_KEY.test(key)) return canonicalJson(bag[key]);
  return null;
}

/** Appends to the list under `key` (in place: a call with 100k late progress stays linear). */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V, first?: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, first === undefined ? [value] : [first, value]);
}

export const teach = (lab: Teaches['lab'], scenario: string, query = ''): Teaches => ({ lab, scenario, href: `#/${lab}/${scenario}${query ? `?${query}` : ''}` });
export const ruleText = (id: string) => RULES[id]?.text ?? '';

/**
 * How many answered calls the index remembers (by id and by progress token) after their response:
 * what a second response, late progress or a late cancel for them is matched against. Older ones
 * are forgotten, so memory is bounded by the calls still open plus this many; a message for a
 * forgotten call reads as one for an unknown id (`response-unknown-id`, `progress-unknown-token`,
 * `cancel-unknown-id` instead of `response-twice`, `progress-after-completion`,
 * `cancel-finished-id`: still flagged).
 */
export const ANSWERED_CALLS_KEPT = 1_000;

/**
 * The call index, built once per run in time order: each request by direction and id (the latest
 * wins), by progress token, the calls still open, and the stream closes and client timeouts that
 * name them. `resolve` says what an entry is about without changing the index; `apply` records it.
 * Answered calls are kept for `ANSWERED_CALLS_KEPT` more answers, then forgotten.
 */
export class CallIndex {
  /** How many requests were seen. */
  requests = 0;
  /** Calls that timed out on the client (`timeout-without-cancel` reads them once the run is over). */
  readonly timedOut: Call[] = [];
  /** The answered calls still remembered, oldest first from `answeredNext`: a ring of `keep` slots (the slot the next answer takes holds the one it pushes out). */
  private readonly answered: Call[] = [];
  private answeredNext = 0;
  constructor(private readonly keep = ANSWERED_CALLS_KEPT) {}
  /**
   * The calls by direction and id, and by direction and progress token. Keyed by the id (or token)
   * itself: ids are strings or integers (`validId`), which a Map tells apart exactly as their JSON
   * texts would (`1` and `"1"` are two keys; `fmtId` is for the reader).
   */
  private readonly latest: Record<Direction, Map<RequestId, Call>> = { c2s: new Map(), s2c: new Map() };
  private readonly byToken: Record<Direction, Map<RequestId, Call>> = { c2s: new Map(), s2c: new Map() };
  /** c2s calls without a response yet (for a client timeout that names no id, and the checks that judge calls never answered). */
  readonly open = new Set<Call>();

  /** The latest call sent in `direction` under `id`. */
  callOf(direction: Direction, id: unknown): Call | undefined {
    return validId(id) ? this.latest[direction].get(id) : undefined;
  }

  /** What `e` is about. For a request the call is built (not yet added: `apply` adds it). */
  resolve(e: TranscriptEntry, m: Record<string, Json> | null): Observation {
    if (e.type === 'meta') return META;
    if (e.type !== 'message' || !m) return OTHER;
    if (e.kind === 'request' && validId(m.id)) {
      const params = isObject(m.params) ? m.params : NO_FIELDS;
      const meta = isObject(params._meta) ? params._meta : NO_FIELDS;
      const isTool = m.method === 'tools/call';
      const key = isTool ? idempotencyKeyOf(params) : null;
      const call = new CallRecord(
        m.id,
        e.direction,
        e,
        m.method as string,
        isTool && typeof params.name === 'string' ? params.name : null,
        isTool ? canonicalJson(params.arguments ?? {}) : null,
        key,
        validId(meta.progressToken) ? meta.progressToken : null,
      );
      return { kind: 'request', call, previous: this.latest[e.direction].get(m.id) };
    }
    if (e.kind === 'response') return { kind: 'response', call: this.callOf(opposite(e.direction), m.id) };
    if (e.kind !== 'notification') return OTHER;
    const params = isObject(m.params) ? m.params : NO_FIELDS;
    if (m.method === 'notifications/progress') {
      if (!validId(params.progressToken)) return OTHER; // the schema check reports it
      return { kind: 'progress', call: this.byToken[opposite(e.direction)].get(params.progressToken), tokenKey: fmtId(params.progressToken), progress: params.progress };
    }
    if (m.method === 'notifications/cancelled') {
      if (!validId(params.requestId)) return OTHER; // malformed: the schema check reports it
      const call = this.callOf(e.direction, params.requestId) ?? (e.direction === 's2c' ? this.callOf('c2s', params.requestId) : undefined);
      return { kind: 'cancel', call, requestId: params.requestId };
    }
    return OTHER;
  }

  /** Records `e` (resolved as `o`) in the index. */
  apply(e: TranscriptEntry, o: Observation): void {
    if (o.kind === 'request') {
      const call = o.call;
      this.requests++;
      this.latest[call.direction].set(call.id, call);
      if (call.token !== null) this.byToken[call.direction].set(call.token, call);
      if (call.direction === 'c2s') this.open.add(call);
    } else if (o.kind === 'response') {
      const call = o.call;
      if (call && call.response === null) {
        call.response = e as MessageEntry;
        const result = isObject(call.response.message) ? call.response.message.result : undefined;
        call.taskHandle = isObject(result) && result.resultType === 'task';
        this.open.delete(call);
        this.retire(call);
      }
    } else if (o.kind === 'cancel') {
      if (o.call && e.type === 'message' && o.call.direction === e.direction) {
        if (o.call.cancels === NO_CANCELS) o.call.cancels = [e];
        else o.call.cancels.push(e);
      }
    } else if (o.kind === 'meta' && e.type === 'meta') {
      if (e.kind === 'stream-close') {
        const call = e.requestId !== undefined ? this.callOf('c2s', e.requestId) : undefined;
        if (call && !call.streamClose) call.streamClose = e;
      } else if (e.kind === 'client-timeout') {
        let call = e.requestId !== undefined ? this.callOf('c2s', e.requestId) : undefined;
        if (!call && e.requestId === undefined) {
          let only: Call | undefined;
          let count = 0;
          for (const c of this.open) {
            if (c.timeout === null && c.method !== 'subscriptions/listen') {
              count++;
              only = c;
              if (count > 1) break;
            }
          }
          if (count === 1) call = only;
        }
        if (call && !call.timeout) {
          call.timeout = e;
          this.timedOut.push(call);
        }
      }
    }
  }

  /** Queues an answered call; the oldest beyond `keep` is forgotten (unless a newer request took its id or token). */
  private retire(call: Call): void {
    if (this.answered.length < this.keep) {
      this.answered.push(call);
      return;
    }
    if (this.keep === 0) return this.forget(call);
    const slot = this.answeredNext;
    const old = this.answered[slot];
    this.answered[slot] = call;
    this.answeredNext = slot + 1 === this.keep ? 0 : slot + 1;
    this.forget(old);
  }

  /** Drops an answered call from the index (unless a newer request took its id or token). */
  private forget(old: Call): void {
    const byId = this.latest[old.direction];
    if (byId.get(old.id) === old) byId.delete(old.id);
    if (old.token !== null) {
      const byToken = this.byToken[old.direction];
      if (byToken.get(old.token) === old) byToken.delete(old.token);
    }
  }
}
