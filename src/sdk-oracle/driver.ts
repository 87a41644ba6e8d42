import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SdkSession, type CallRecord, type WireRecord } from './harness';
import { SdkV2Session, type V2Link } from './harnessV2';

/**
 * Turns a races scenario into SDK actions at the scenario's virtual times and records what the
 * SDK does (`SdkObservation`). Only scenarios the SDK v1 can express are driven: stdio (no HTTP
 * stream close), and only the events `start`, `progress`, `cancel`, `complete` and `inject`; the
 * SDK speaks 2025-11-25, so a scenario written for 2026-07-28 runs with 2025-11-25 stdio
 * semantics (the cancellation rules for stdio are the same in both). Mapping:
 * - `start` → `client.callTool({name: "work"}, undefined, {timeout: idleTimeoutMs (omitted: the
 *   SDK's 60000 ms default), maxTotalTimeout: maxTimeoutMs, resetTimeoutOnProgress:
 *   config.progressResetsIdleTimeout, onprogress: present iff the event has a progressToken,
 *   signal})`; the SDK picks the JSON-RPC id and uses it as the progress token.
 * - `progress` → the handler sends `notifications/progress`; `complete` → the handler returns.
 * - `cancel` → the caller's `AbortController.abort(reason)`.
 * - `inject` → the raw message, sent from the client side (request ids as written).
 * After the last event the clock runs on for `tailMs` so pending timers fire.
 */

/** A races scenario as stored in public/scenarios/races (the parts the driver reads). */
export interface RacesScenarioFile {
  id: string;
  title: string;
  config: { transport?: string; hop?: unknown; latencyMs?: { clientToServer?: number; serverToClient?: number }; progressResetsIdleTimeout?: boolean; policy?: Record<string, unknown> };
  events: ({ id: string; at: number; kind: string; requestId?: string | number } & Record<string, unknown>)[];
}

/** The SDK's options for one call, as the driver passed them. */
export interface SdkCallOptions {
  timeout: number | null;
  maxTotalTimeout: number | null;
  resetTimeoutOnProgress: boolean;
  onprogress: boolean;
}

/** What the SDK did in one scenario. */
export interface SdkObservation {
  scenario: string;
  title: string;
  options: Record<string, SdkCallOptions>;
  calls: CallRecord[];
  /** Every message after the handshake, both directions, with the virtual time it was sent (ms). */
  wire: WireRecord[];
  /** Errors the SDK client reported through `onerror` (e.g. a response for an unknown id). */
  clientErrors: { atMs: number; message: string }[];
  endAtMs: number;
}

const DRIVEN = new Set(['start', 'progress', 'cancel', 'complete', 'inject']);

/**
 * Why the SDK cannot express a scenario, or null when it can. `http`: the scenario runs on the
 * SDK's Streamable HTTP pair (`httpLink.ts`), so a `streamable-http` transport is expressible too.
 */
export function notExpressible(s: RacesScenarioFile, opts: { http?: boolean } = {}): string | null {
  if ((s.config.transport ?? 'stdio') !== 'stdio' && !opts.http) return `transport ${s.config.transport}: the oracle links Client and McpServer in memory (stdio semantics); a 2026-07-28 HTTP stream close has no SDK v1 counterpart`;
  if (s.config.hop !== undefined) return 'config.hop: the oracle links Client and McpServer directly; the SDK has no intermediary hop with its own timer';
  if ((s.config as { protocolVersions?: unknown }).protocolVersions !== undefined) return 'config.protocolVersions: the oracle drives the SDK pair with the versions it is built to speak; the lab\'s client and server version lists are not passed to it';
  if ((s.config as { stdioReader?: unknown }).stdioReader !== undefined) return 'config.stdioReader: the oracle links Client and McpServer in memory, whole messages with no byte stream, so a read size and a message-size limit cannot be set';
  const other = s.events.find((e) => !DRIVEN.has(e.kind));
  if (other) return `event kind "${other.kind}" (${other.id}) has no SDK v1 action`;
  const policy = Object.entries(s.config.policy ?? {}).find(([, on]) => on === true);
  if (policy) return `policy.${policy[0]} is on: it models a broken peer the SDK pairing does not have`;
  const started = new Set(s.events.filter((e) => e.kind === 'start').map((e) => JSON.stringify(e.requestId)));
  const orphan = s.events.find((e) => e.kind !== 'start' && e.kind !== 'inject' && !started.has(JSON.stringify(e.requestId)));
  if (orphan) return `${orphan.kind} ${orphan.id} names request ${JSON.stringify(orphan.requestId)}, which no start event sends (the lab's client makes it: a re-send)`;
  const zero = s.events.find((e) => e.kind === 'start' && (e.requestId === 0 || e.requestId === ''));
  if (zero) return `request id ${JSON.stringify(zero.requestId)} (${zero.id}): the SDK client numbers its own requests from 1 (0 is initialize); the id-0 server bug is driven by the raw server probe instead`;
  const windowed = s.events.find((e) => e.kind === 'complete' && typeof e.writeDelayMs === 'number' && e.writeDelayMs > 0);
  if (windowed) return `complete "${windowed.id}" has writeDelayMs ${String(windowed.writeDelayMs)}: the SDK server writes the response as its handler's promise resolves, so the window between return and write cannot be scripted`;
  const malformed = s.events.find((e) => e.kind === 'cancel' && e.malformed !== undefined);
  if (malformed) return `cancel "${malformed.id}" is malformed (${String(malformed.malformed)}): the SDK v1 client only sends well-formed cancellations`;
  return null;
}

/**
 * Runs one scenario against the real SDK. `advance` is `vi.advanceTimersByTimeAsync`; `link`
 * makes the transports (default in memory; `httpLink()` for Streamable HTTP). Throws when it is
 * not expressible.
 */
export async function observe(s: RacesScenarioFile, advance: (ms: number) => Promise<unknown>, tailMs = 250_000, link?: () => [Transport, Transport]): Promise<SdkObservation> {
  const why = notExpressible(s, { http: link !== undefined });
  if (why) throw new Error(`${s.id}: not expressible with the SDK — ${why}`);
  const session = new SdkSession();
  await session.start(latencyOf(s), advance, link);
  return drive(session, s, advance, tailMs);
}

/**
 * Runs one scenario against the real SDK v2 (`harnessV2.ts`) on `link`, speaking 2026-07-28;
 * `negotiated` is the revision the client reports (the suites assert it). Throws when the
 * scenario is not expressible (`notExpressibleV2`).
 */
export async function observeV2(s: RacesScenarioFile, advance: (ms: number) => Promise<unknown>, link: V2Link = 'stdio', tailMs = 250_000): Promise<SdkObservation & { negotiated: string | undefined; requests: string[] }> {
  const why = notExpressibleV2(s, link);
  if (why) throw new Error(`${s.id}: not expressible with the SDK v2 — ${why}`);
  const session = new SdkV2Session(link);
  await session.start(latencyOf(s), advance);
  const o = await drive(session, s, advance, tailMs);
  return { ...o, negotiated: session.negotiated, requests: session.requests };
}

/**
 * Why the SDK v2 pair cannot express a scenario on `link`, or null when it can. The v1 reasons
 * (`notExpressible`) less two: the transport (the v2 pair runs stdio and Streamable HTTP) and
 * request id 0 (the v2 client's first call under 2026-07-28 has id 0 — its handshake is
 * `server/discover` with a string id — and the comparison maps ids to the scenario's keys anyway);
 * over HTTP a `disconnect` event is driven too (the network cuts the call's response stream).
 * A scenario is driven over HTTP only on the HTTP link and over stdio only on the stdio link.
 */
export function notExpressibleV2(s: RacesScenarioFile, link: V2Link): string | null {
  const transport = s.config.transport ?? 'stdio';
  if ((transport === 'stdio') !== (link === 'stdio')) return `transport ${transport}: driven on the ${transport === 'stdio' ? 'stdio-like' : 'Streamable HTTP'} link only`;
  const zeroFree = { ...s, config: { ...s.config, transport: 'stdio' }, events: s.events.map((e) => (e.requestId === 0 ? { ...e, requestId: 'id-0' } : e)) };
  // over HTTP a disconnect is a network cut of the call's stream (SdkV2Session.disconnect)
  const why = notExpressible(link === 'http' ? { ...zeroFree, events: zeroFree.events.filter((e) => e.kind !== 'disconnect') } : zeroFree);
  return why?.replace(/SDK v1/g, 'SDK v2').replace(/"id-0"/g, '0') ?? null;
}

const latencyOf = (s: RacesScenarioFile) => ({ clientToServer: s.config.latencyMs?.clientToServer ?? 0, serverToClient: s.config.latencyMs?.serverToClient ?? 0 });

/** The part of a session `drive` uses: both SDK harnesses (`SdkSession`, `SdkV2Session`) have it. */
interface DrivenSession {
  wire: WireRecord[];
  calls: Map<string, CallRecord>;
  clientErrors: { atMs: number; message: string }[];
  now(): number;
  call(key: string, options: { timeout?: number; maxTotalTimeout?: number; resetTimeoutOnProgress?: boolean; onprogress: boolean }): void;
  progress(key: string, progress: number, total?: number, message?: string): void;
  cancel(key: string, reason: string): void;
  complete(key: string, text: string): void;
  injectFromClient(message: unknown): void;
  /** SDK v2 over HTTP only: the network cuts the call's response stream. */
  disconnect?(key: string): void;
  messagesSince(index: number): WireRecord[];
}

/** Plays the scenario's events on a started session at their virtual times (see the module note). */
async function drive(session: DrivenSession, s: RacesScenarioFile, advance: (ms: number) => Promise<unknown>, tailMs: number): Promise<SdkObservation> {
  const handshake = session.wire.length;
  const options: Record<string, SdkCallOptions> = {};
  const events = s.events.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
  for (const { e } of events) {
    const wait = e.at - session.now();
    if (wait > 0) await advance(wait);
    const key = JSON.stringify(e.requestId);
    switch (e.kind) {
      case 'start': {
        const o: SdkCallOptions = {
          timeout: typeof e.idleTimeoutMs === 'number' ? e.idleTimeoutMs : null,
          maxTotalTimeout: typeof e.maxTimeoutMs === 'number' ? e.maxTimeoutMs : null,
          resetTimeoutOnProgress: s.config.progressResetsIdleTimeout ?? true,
          onprogress: e.progressToken !== undefined,
        };
        options[key] = o;
        session.call(key, { timeout: o.timeout ?? undefined, maxTotalTimeout: o.maxTotalTimeout ?? undefined, resetTimeoutOnProgress: o.resetTimeoutOnProgress, onprogress: o.onprogress });
        break;
      }
      case 'progress':
        session.progress(key, e.progress as number, e.total as number | undefined, e.message as string | undefined);
        break;
      case 'cancel':
        session.cancel(key, (e.reason as string | undefined) ?? 'cancelled');
        break;
      case 'complete':
        session.complete(key, (e.text as string | undefined) ?? 'done');
        break;
      case 'inject':
        session.injectFromClient(e.message);
        break;
      case 'disconnect':
        if (!session.disconnect) throw new Error(`${s.id}: a disconnect needs the SDK v2 HTTP link`);
        session.disconnect(key);
        break;
    }
    await advance(0);
  }
  await advance(tailMs);
  return {
    scenario: s.id,
    title: s.title,
    options,
    calls: [...session.calls.values()],
    wire: session.messagesSince(handshake),
    clientErrors: session.clientErrors,
    endAtMs: session.now(),
  };
}

/**
 * A scenario as the SDK drives it over Streamable HTTP (`httpLink.ts`): transport
 * `streamable-http`; `keepalive` events left out (an SSE comment: the SDK's McpServer gives a
 * tool handler no way to write one on its request's stream, and the lab's client ignores it — it
 * is not an MCP message — so the lab's run keeps them).
 */
export function overStreamableHttp(raw: RacesScenarioFile): RacesScenarioFile {
  return { ...raw, config: { ...raw.config, transport: 'streamable-http' }, events: raw.events.filter((e) => e.kind !== 'keepalive') };
}

/** The capture-envelope JSONL lines of a recorded session: `{ts, direction, transport: "stdio", raw}` (ts from 2026-01-01T00:00:00Z + atMs). */
export function captureEnvelope(wire: readonly WireRecord[]): string {
  const origin = Date.UTC(2026, 0, 1);
  return wire.map((w) => JSON.stringify({ ts: new Date(origin + w.atMs).toISOString(), direction: w.direction, transport: 'stdio', raw: JSON.stringify(w.message) })).join('\n') + '\n';
}
