import type { Json } from '../types';
import type { Revision, RequestId } from '../mcp';
import { stepIndexAt } from '../replay';
import { flowStateAt, type FlowTrace } from './index';
import type { FlowState } from './model';
import type { FlowConfig, FlowEvent } from './schema';

/**
 * The reconnect plan after a stream drops (issue 4, item 3), as the wire messages a correct client
 * sends, for both revisions side by side.
 *
 * 2026-07-28 (`basic/transports/streamable-http`; resumability removed): a new
 * `subscriptions/listen` request with a NEW JSON-RPC id and no `Last-Event-ID`, the subscription
 * filter restored; the affected resources refetched with `resources/read` (sorted, duplicates
 * removed); in-flight calls re-issued with new ids only when safe to repeat — an unsafe mutation
 * is never replayed automatically (its outcome is unknown); application state merged by stable ids.
 *
 * 2025-11-25 (`basic/transports`, Resumability and Redelivery): `GET` with `Last-Event-ID` (and
 * the `MCP-Session-Id`); the server replays the events after that id from its event store — or,
 * when the store has already evicted it, starts a fresh stream without replay, and the client must
 * refetch what it missed.
 */

export interface InFlightCall {
  /** The call's JSON-RPC id: the one name the plan, the timeline and the lesson rows use for it. */
  id: RequestId;
  tool: string;
  /** True when repeating the call could repeat a side effect (no idempotency key, not read-only). */
  unsafe: boolean;
  /** The idempotency key the call carries (arguments.idempotencyKey), as the model reads it; absent: none. */
  idempotencyKey?: string;
  /** The id a 2026-07-28 re-issue gets (the model's `<id>-reissue-<n>`); absent: the plan counts one up from `nextId`. */
  reissueId?: RequestId;
}

export interface ReconnectInput {
  /** The JSON-RPC id of the dropped `subscriptions/listen` request (2026-07-28). */
  droppedId: RequestId;
  /** The next id the client's counter hands out (new requests count up from it). */
  nextId: number;
  /** The filter the dropped stream had. */
  filter: { toolsListChanged?: boolean; resourcesListChanged?: boolean; promptsListChanged?: boolean; resourceSubscriptions?: string[] };
  /** Resources touched by events the client may have missed (any order, duplicates allowed). */
  affectedResources: string[];
  inFlight: InFlightCall[];
  /** 2025-11-25: the last SSE event id the client saw. */
  lastEventId: number;
  /** 2025-11-25: the event ids the server's store still holds, inclusive. */
  eventStore: { oldestId: number; newestId: number };
  sessionId: string;
  /**
   * The client's application state before the drop: one record per resource it has seen, keyed by
   * stable id (optional; when given, the plan's merge step reports the merged state).
   */
  appState?: AppRecord[];
  /**
   * Every event the server emitted up to the reconnect, in order: the resource it updates and its
   * SSE event id (the emission number). A 2025-11-25 replay resends the ones after Last-Event-ID; a
   * refetch reads each affected resource's newest version among them.
   */
  emitted?: { resource: string; eventId: number }[];
}

/** One record of the client's application state, keyed by a stable id (the resource URI). */
export interface AppRecord {
  /** Stable id: the resource URI (never the JSON-RPC id or the SSE event id). */
  id: string;
  /** The version the record reflects: the id of the newest event it includes (0: none). */
  version: number;
  /** Where the record came from: held before the drop, resent by a replay, or read by a refetch. */
  source: 'held' | 'replay' | 'refetch';
}

/** Result of merging records into application state by stable id. */
export interface MergeResult {
  /** One record per id, the newest version kept, sorted by id. */
  records: AppRecord[];
  /** Records whose id was already present (each would have shown twice without the merge). */
  duplicatesMerged: number;
  /** Of those, records older than (or as old as) the one kept, so ignored. */
  staleIgnored: number;
}

/**
 * Merges `incoming` into `current` by stable id (issue 4, item 3: "application state deduplicated
 * by stable ids"): a resource seen twice appears once, with its newest version; an older or equal
 * version never replaces a newer one (a replayed event older than a refetch changes nothing).
 * Pure; throws nothing.
 */
export function mergeByStableId(current: readonly AppRecord[], incoming: readonly AppRecord[]): MergeResult {
  const byId = new Map<string, AppRecord>();
  let duplicatesMerged = 0;
  let staleIgnored = 0;
  for (const r of [...current, ...incoming]) {
    const old = byId.get(r.id);
    if (old === undefined) byId.set(r.id, r);
    else {
      duplicatesMerged++;
      if (r.version > old.version) byId.set(r.id, r);
      else staleIgnored++;
    }
  }
  const records = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { records, duplicatesMerged, staleIgnored };
}

/** What the client's application state becomes after the reconnect under one revision. */
export interface AppStateAfterReconnect {
  /** Records the reconnect brings in: replayed events (2025-11-25, store still holds them) and refetched resources. */
  incoming: AppRecord[];
  /** Appending them without dedup (the bug): a resource can show more than once. */
  naive: AppRecord[];
  /** Merged by stable id (the correct client). */
  merged: MergeResult;
}

/**
 * The application state after the reconnect of `input` under `revision`: 2026-07-28 refetches the
 * affected resources (each at its newest emitted version up to the event store's newest id);
 * 2025-11-25 replays every stored event after Last-Event-ID (one record per event, so a resource
 * updated three times arrives three times) or, when the store evicted part of the gap, refetches
 * instead. Uses `input.appState` (default empty) and `input.emitted` (default empty). Pure.
 */
export function appStateAfterReconnect(revision: Revision, input: ReconnectInput): AppStateAfterReconnect {
  const held = input.appState ?? [];
  const emitted = input.emitted ?? [];
  const { oldestId, newestId } = input.eventStore;
  const refetch = (): AppRecord[] =>
    uniqueSorted(input.affectedResources).map((uri) => {
      let version = 0;
      for (const e of emitted) if (e.resource === uri && e.eventId <= newestId && e.eventId > version) version = e.eventId;
      return { id: uri, version, source: 'refetch' as const };
    });
  let incoming: AppRecord[];
  if (revision === '2026-07-28') incoming = refetch();
  else {
    const missedFrom = input.lastEventId + 1;
    if (missedFrom > newestId) incoming = [];
    else if (oldestId <= missedFrom) incoming = emitted.filter((e) => e.eventId >= missedFrom && e.eventId <= newestId).map((e) => ({ id: e.resource, version: e.eventId, source: 'replay' as const }));
    else incoming = refetch();
  }
  return { incoming, naive: [...held, ...incoming], merged: mergeByStableId(held, incoming) };
}

function mergeNote(revision: Revision, input: ReconnectInput): string {
  const a = appStateAfterReconnect(revision, input);
  const n = a.merged.records.length;
  return `Merge into the application by stable id (resource URI): ${a.incoming.length} incoming record${a.incoming.length === 1 ? '' : 's'} + ${a.naive.length - a.incoming.length} held → ${n} record${n === 1 ? '' : 's'}, each at its newest version (${a.merged.duplicatesMerged} duplicate${a.merged.duplicatesMerged === 1 ? '' : 's'} merged; appending without dedup would show ${a.naive.length}).`;
}

export interface PlanStep {
  from: 'client' | 'server';
  /** HTTP line(s) that carry the message, or the HTTP action when there is no JSON-RPC message. */
  http: string;
  message?: Json;
  /** Why this step (shown beside it). */
  note: string;
}

const CLIENT_INFO = { name: 'reliability-lab-client', version: '1.0.0' };

function meta2026(): Record<string, Json> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  };
}

/** Sorted, duplicate-free copy. */
export function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function filterJson(filter: ReconnectInput['filter']): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (filter.toolsListChanged) out.toolsListChanged = true;
  if (filter.resourcesListChanged) out.resourcesListChanged = true;
  if (filter.promptsListChanged) out.promptsListChanged = true;
  if (filter.resourceSubscriptions && filter.resourceSubscriptions.length > 0) out.resourceSubscriptions = uniqueSorted(filter.resourceSubscriptions);
  return out;
}

/** The plan under `revision` (see the module docstring). Pure; throws nothing. */
export function reconnectPlan(revision: Revision, input: ReconnectInput): PlanStep[] {
  return revision === '2026-07-28' ? plan2026(input) : plan2025(input);
}

function plan2026(input: ReconnectInput): PlanStep[] {
  let id = input.nextId;
  const steps: PlanStep[] = [];
  steps.push({
    from: 'client',
    http: 'POST /mcp · Accept: application/json, text/event-stream (no Last-Event-ID)',
    message: { jsonrpc: '2.0', id: id++, method: 'subscriptions/listen', params: { _meta: meta2026(), notifications: filterJson(input.filter) } },
    note: `A new subscriptions/listen with a new id (the dropped stream was ${JSON.stringify(input.droppedId)}); the same filter, restored. No Last-Event-ID: 2026-07-28 has no resumption.`,
  });
  for (const uri of uniqueSorted(input.affectedResources)) {
    steps.push({
      from: 'client',
      http: 'POST /mcp',
      message: { jsonrpc: '2.0', id: id++, method: 'resources/read', params: { _meta: meta2026(), uri } },
      note: `Refetch ${uri}: updates sent while the stream was down are gone; the authoritative read replaces them.`,
    });
  }
  for (const call of input.inFlight) {
    if (call.unsafe) {
      steps.push({
        from: 'client',
        http: '(nothing sent)',
        note: `${call.tool} (request ${JSON.stringify(call.id)}) was in flight and is unsafe to repeat: not replayed automatically. Its outcome is unknown — ask the user, or check with a read, before retrying with an idempotency key.`,
      });
    } else {
      const newId = call.reissueId ?? id++;
      const why =
        call.idempotencyKey !== undefined
          ? `carries idempotency key ${JSON.stringify(call.idempotencyKey)}, so repeating it is safe: a server that already executed it answers with the stored result`
          : 'it is safe to repeat (read-only or idempotent)';
      steps.push({
        from: 'client',
        http: 'POST /mcp',
        message: { jsonrpc: '2.0', id: newId, method: 'tools/call', params: { name: call.tool, arguments: call.idempotencyKey !== undefined ? { idempotencyKey: call.idempotencyKey } : {}, _meta: meta2026() } },
        note: `${call.tool} (request ${JSON.stringify(call.id)}) was in flight and ${why}. Re-issued as a new request ${JSON.stringify(newId)} (the old id ${JSON.stringify(call.id)} is dead).`,
      });
    }
  }
  steps.push({
    from: 'client',
    http: '(local)',
    note: input.appState ? mergeNote('2026-07-28', input) : 'Merge the refetched state into the application by stable ids (resource URI, item id), so nothing shows twice.',
  });
  return steps;
}

function plan2025(input: ReconnectInput): PlanStep[] {
  const { oldestId, newestId } = input.eventStore;
  const steps: PlanStep[] = [
    {
      from: 'client',
      http: `GET /mcp · Accept: text/event-stream · MCP-Session-Id: ${input.sessionId} · Last-Event-ID: ${input.lastEventId}`,
      note: 'Resume the stream: the client names the last event it saw.',
    },
  ];
  const missedFrom = input.lastEventId + 1;
  const merge = (): PlanStep[] => (input.appState ? [...steps, { from: 'client', http: '(local)', note: mergeNote('2025-11-25', input) }] : steps);
  if (missedFrom > newestId) {
    steps.push({ from: 'server', http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream', note: 'Nothing was missed: the stream simply continues.' });
    return merge();
  }
  if (oldestId <= missedFrom) {
    steps.push({
      from: 'server',
      http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream',
      note: `The event store still holds ${missedFrom}–${newestId}: the server replays those ${newestId - missedFrom + 1} events on this stream, in order. Nothing to refetch; in-flight responses among them arrive now.`,
    });
    return merge();
  }
  steps.push({
    from: 'server',
    http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream',
    note: `The store has evicted ${missedFrom}–${oldestId - 1} (it keeps ${oldestId}–${newestId}): the server cannot replay them, so the client has a gap and must fall back to refetching.`,
  });
  let id = input.nextId;
  for (const uri of uniqueSorted(input.affectedResources)) {
    steps.push({ from: 'client', http: `POST /mcp · MCP-Session-Id: ${input.sessionId}`, message: { jsonrpc: '2.0', id: id++, method: 'resources/read', params: { uri } }, note: `Refetch ${uri}.` });
  }
  for (const call of input.inFlight) {
    if (call.unsafe) steps.push({ from: 'client', http: '(nothing sent)', note: `${call.tool} (id ${JSON.stringify(call.id)}) may have run: its response may be among the evicted events. Not replayed automatically.` });
  }
  return merge();
}

/** A stream drop of the current scenario, and the reconnect plan's input derived from it. */
export interface StreamDrop {
  /** When the stream dropped (virtual ms). */
  atMs: number;
  /** Why it dropped (the model's reason), or why a drop is assumed. */
  reason: string;
  /** True when the scenario's stream never drops under its current setting: the drop is assumed at the playhead. */
  assumed: boolean;
  /** When the client reconnected and resynced (ms); null when it did not within the run (or the drop is assumed). */
  reconnectAtMs: number | null;
  /** Events queued in the server's buffer or held by the proxy that were lost with the stream. */
  lostAtDrop: number;
  /** Every token the stream carries (one tools/call each), in order of first appearance. */
  tokens: string[];
  input: ReconnectInput;
}

/** What the drop's plan assumes beyond the scenario (the lab's two switches). */
export interface StreamDropOptions {
  /** 2025-11-25: how many of the newest events the server's event store keeps (≥ 1). */
  eventStoreEvents: number;
  /** Whether the in-flight calls are safe to repeat (read-only or idempotent); the scenario does not say, so the default is unsafe. */
  inFlightSafe: boolean;
}

/** The resource a token's updates concern: what the client subscribes to and refetches. */
export function tokenResource(token: string): string {
  return `flow://streams/${encodeURIComponent(token)}`;
}

/**
 * The first stream drop of a replayed flow scenario (capacity disconnect, proxy read timeout, a
 * scripted drop), or — when the stream never drops — a drop assumed at `atMs` (the playhead), as the
 * input of `reconnectPlan`, so both revisions' plans describe the drop the timeline shows.
 *
 * Mapping (the flow model has one SSE stream carrying one tools/call per token): the stream is the
 * `subscriptions/listen` request id 1, subscribed to `tokenResource(token)` for every token; token k
 * (in order of first appearance) is `tools/call` id k + 2; SSE event ids are the server's emission
 * numbers. In flight: tokens whose first event came at or before the drop and whose final response
 * had not reached the client. Affected resources: the tokens marked for refetch by the drop (lost
 * or coalesced progress). Last-Event-ID: the highest emission number the client received. The
 * 2025-11-25 event store holds the newest `eventStoreEvents` events as of the reconnect (or the end
 * of the run / the assumed drop). Returns null for fleet-only scenarios (no single stream). Pure.
 */
export function streamDrop(trace: FlowTrace, atMs: number, options: StreamDropOptions): StreamDrop | null {
  const config = trace.scenario.config as unknown as FlowConfig;
  const firstAt = new Map<string, number>();
  const note = (token: string, at: number) => {
    if (!firstAt.has(token) || (firstAt.get(token) as number) > at) firstAt.set(token, at);
  };
  for (const p of config.producers) if (p.count > 0 || p.final) note(p.token, p.startMs);
  for (const e of trace.scenario.events as unknown as FlowEvent[]) if (e.kind === 'progress' || e.kind === 'final') note(e.token, e.at);
  if (firstAt.size === 0) return null;
  const tokens = [...firstAt.keys()].sort((a, b) => (firstAt.get(a) as number) - (firstAt.get(b) as number) || (a < b ? -1 : a > b ? 1 : 0));

  const steps = trace.steps;
  let dropIndex = -1;
  for (let i = 0; i < steps.length; i++) {
    const prev = i === 0 ? trace.initial : steps[i - 1].state;
    if (steps[i].state.disconnects > prev.disconnects) {
      dropIndex = i;
      break;
    }
  }
  let before: FlowState;
  let after: FlowState;
  let dropAt: number;
  let reconnectAtMs: number | null = null;
  let reconnectIndex = -1;
  let newest: number;
  if (dropIndex >= 0) {
    before = dropIndex === 0 ? trace.initial : steps[dropIndex - 1].state;
    after = steps[dropIndex].state;
    dropAt = steps[dropIndex].at;
    newest = trace.outcome.summary.emitted as number;
    for (let i = dropIndex + 1; i < steps.length; i++) {
      if (steps[i].state.reconnects > after.reconnects) {
        reconnectAtMs = steps[i].at;
        reconnectIndex = i;
        newest = (i === 0 ? trace.initial : steps[i - 1].state).seq;
        break;
      }
    }
  } else {
    before = flowStateAt(trace, atMs);
    after = before;
    dropAt = atMs;
    newest = before.seq;
  }
  const lostAtDrop =
    dropIndex >= 0 ? after.lostWhileDown - before.lostWhileDown : before.buffer.size + before.proxyHeld.progress + before.proxyHeld.finals;
  const refetch = dropIndex >= 0 ? after.buffer.refetch : uniqueSorted([...before.buffer.refetch, ...before.buffer.runs.map((r) => r.token)]);
  const callId = (token: string) => tokens.indexOf(token) + 2;
  // The watched call as the model names and keys it (reissue.ts): its id is its token (then
  // `<token>-reissue-<n>`), its tool is config.client.tool, and its idempotency key — unless the
  // key-omitted bug is on — makes a re-issue safe (the server answers from the stored result), as does a tool
  // without a side effect.
  const opToken = before.reissue.requestId !== null ? before.op.token : null;
  const key = config.client.idempotencyKey !== null && !config.bugs.idempotencyKeyOmitted ? config.client.idempotencyKey : undefined;
  const reissuedAs = reconnectIndex >= 0 ? steps[reconnectIndex].state.reissue.requestId : null;
  const inFlight: InFlightCall[] = tokens
    // In flight at the drop: the watched call from its request on (RI2's report writes nothing for 90 s), any other
    // stream from its first write.
    .filter((t) => (t === opToken || (firstAt.get(t) as number) <= dropAt) && !before.finishedTokens.includes(t))
    .map((t): InFlightCall => {
      if (t !== opToken) return { id: callId(t), tool: t, unsafe: !options.inFlightSafe };
      const id = before.reissue.requestId as string;
      // Safe to repeat as the model reads it: a key, or a tool with no side effect (config.client.sideEffect false: RI2's report).
      const call: InFlightCall = { id, tool: config.client.tool, unsafe: !options.inFlightSafe && key === undefined && config.client.sideEffect, reissueId: reissuedAs !== null && reissuedAs !== id ? reissuedAs : `${t}-reissue-${before.reissue.reissues + 1}` };
      if (key !== undefined) call.idempotencyKey = key;
      return call;
    });
  const storeSize = Math.max(1, Math.floor(options.eventStoreEvents));
  // Every write up to the reconnect (or the assumed drop), as (resource, event id).
  const emitted: { resource: string; eventId: number }[] = [];
  // Same window as the event store's `newest`: before the reconnect step, to the end, or to the assumed drop.
  const endIndex = dropIndex < 0 ? stepIndexAt(steps, atMs) + 1 : reconnectIndex >= 0 ? reconnectIndex : steps.length;
  for (let i = 0, prevSeq = trace.initial.seq; i < endIndex; i++) {
    const st = steps[i];
    if (st.state.seq > prevSeq && st.state.lastWriteToken !== null) emitted.push({ resource: tokenResource(st.state.lastWriteToken), eventId: st.state.seq });
    prevSeq = st.state.seq;
  }
  const lastEventId = before.lastDeliveredSeq;
  const heldVersion = new Map<string, number>();
  for (const e of emitted) if (e.eventId <= lastEventId) heldVersion.set(e.resource, Math.max(heldVersion.get(e.resource) ?? 0, e.eventId));
  const appState: AppRecord[] = [...heldVersion.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, version]) => ({ id, version, source: 'held' }));
  return {
    atMs: dropAt,
    reason: dropIndex >= 0 ? after.statusReason : 'this scenario\'s stream does not drop under the current setting; a drop is assumed at the playhead',
    assumed: dropIndex < 0,
    reconnectAtMs,
    lostAtDrop,
    tokens,
    input: {
      droppedId: 1,
      nextId: tokens.length + 2,
      filter: { resourceSubscriptions: tokens.map(tokenResource) },
      affectedResources: refetch.map(tokenResource),
      inFlight,
      lastEventId,
      eventStore: { oldestId: Math.max(1, newest - storeSize + 1), newestId: newest },
      sessionId: `sess-${trace.scenario.seed ?? 0}`,
      appState,
      emitted,
    },
  };
}

export * from './resumption';
