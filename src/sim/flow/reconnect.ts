import type { Json } from '../types';
import type { Revision, RequestId } from '../mcp';

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
  id: RequestId;
  tool: string;
  /** True when repeating the call could repeat a side effect (no idempotency key, not read-only). */
  unsafe: boolean;
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
        note: `${call.tool} (id ${JSON.stringify(call.id)}) was in flight and is unsafe to repeat: not replayed automatically. Its outcome is unknown — ask the user, or check with a read, before retrying with an idempotency key.`,
      });
    } else {
      steps.push({
        from: 'client',
        http: 'POST /mcp',
        message: { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: call.tool, arguments: {}, _meta: meta2026() } },
        note: `${call.tool} was in flight and is safe to repeat: re-issued with a NEW id (${id - 1}; the old id ${JSON.stringify(call.id)} is dead).`,
      });
    }
  }
  steps.push({ from: 'client', http: '(local)', note: 'Merge the refetched state into the application by stable ids (resource URI, item id), so nothing shows twice.' });
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
  if (missedFrom > newestId) {
    steps.push({ from: 'server', http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream', note: 'Nothing was missed: the stream simply continues.' });
    return steps;
  }
  if (oldestId <= missedFrom) {
    steps.push({
      from: 'server',
      http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream',
      note: `The event store still holds ${missedFrom}–${newestId}: the server replays those ${newestId - missedFrom + 1} events on this stream, in order. Nothing to refetch; in-flight responses among them arrive now.`,
    });
    return steps;
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
  return steps;
}
