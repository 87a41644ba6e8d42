import { ERROR_CODES, unsupportedVersionResponse } from '../../mcp';
import { RANK, type RequestState } from '../types';
import { changed, clearDeadlines, describeId, settle, type Ctx, type RacesCore } from '../state';
import { issueRetry, nextFreeId } from '../retry';
import { mark } from './marks';

/**
 * Protocol versions per request (2026-07-28 `basic/versioning`), configured by
 * `config.protocolVersions`: the versions the client speaks (preferred first) and those the server
 * implements. "Every request declares the protocol version it is using in its `_meta` field" (on
 * HTTP also in `MCP-Protocol-Version`); "If the server does not implement the requested version …
 * it MUST respond with an UnsupportedProtocolVersionError listing the versions it does support";
 * "The client SHOULD select a mutually supported version from the `supported` list and retry the
 * request, or surface an error to the user if no compatible version exists."
 *
 * Correct client: a -32022 answer ends that request (an error response); the client picks the first
 * of its own versions the server listed, retries the call at once as a new request with a new id
 * declaring it, and declares it on every later request. With no version in common it fails the
 * call with that error and retries nothing.
 *
 * Bug `policy.unsupportedVersionNotRetried`: the client surfaces -32022 as the tool call's failure
 * and keeps declaring its first version, so every call fails although the server listed a version
 * both speak.
 *
 * Only under 2026-07-28 (under 2025-11-25 the version is agreed once, by `initialize`, which the
 * races lab does not draw). Times are virtual ms.
 */

/** True when requests declare versions from `config.protocolVersions` (2026-07-28 only). */
export function versionsApply(state: RacesCore): boolean {
  return state.config.protocolVersions !== undefined && state.config.revision === '2026-07-28';
}

/** The version the client declares now: the one it chose after a -32022 (the latest), else its first. O(requests). */
export function currentVersion(state: RacesCore): string {
  for (let i = state.requests.length - 1; i >= 0; i--) {
    const chosen = state.requests[i].mech?.versionChosen;
    if (chosen !== undefined) return chosen;
  }
  return state.config.protocolVersions!.client[0];
}

/**
 * `req` reaches the server declaring `req.mech.versionDeclared`: when the server does not implement
 * it, the server answers -32022 at once (HTTP: 400 Bad Request), runs nothing and returns true.
 */
export function serverRejectsVersion(state: RacesCore, req: RequestState, ctx: Ctx): boolean {
  const { config } = state;
  const requested = req.mech?.versionDeclared;
  const supported = config.protocolVersions!.server;
  if (requested === undefined || supported.includes(requested)) return false;
  const s = req.server;
  s.state = 'failed';
  s.atMs = ctx.now;
  s.receivedAt = ctx.now;
  s.responseSentAt = ctx.now;
  s.workEndedAt = ctx.now;
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const message = unsupportedVersionResponse(req.id, supported, requested);
  ctx.emit({ from: 'server', transport: config.transport, message, http: config.transport === 'streamable-http' ? 'HTTP 400 Bad Request with the JSON-RPC error' : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: false });
  if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
  mark(req, { versionRejectedAt: ctx.now });
  ctx.why(() => `${describeId(req.id)} declares protocol version ${JSON.stringify(requested)}, which the server does not implement: it MUST answer ${ERROR_CODES.unsupportedProtocolVersion} UnsupportedProtocolVersion listing what it supports (${supported.join(', ')}), and the tool does not run.`, 'mech.version-negotiation');
  changed(state, req);
  return true;
}

/** The -32022 answer to the pending `req` reaches the client: retry with a mutual version (correct), fail (none in common), or fail anyway (the bug). */
export function clientVersionRejected(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const { config } = state;
  const now = ctx.now;
  const { client, server } = config.protocolVersions!;
  const requested = req.mech?.versionDeclared ?? client[0];
  const mutual = client.find((v) => server.includes(v));
  clearDeadlines(req, ctx);
  req.client.responseFate = 'accepted';
  const listed = `the server supports ${server.join(', ')}`;
  if (mutual === undefined) {
    settle(req, now, 'failed', `error ${ERROR_CODES.unsupportedProtocolVersion} (unsupported protocol version ${JSON.stringify(requested)}; ${listed}): no version in common, so the client surfaces the error`, 'mech.version-negotiation');
    mark(req, { versionNoneCompatibleAt: now });
    ctx.why(() => `The server rejects ${JSON.stringify(requested)} — ${listed}; the client speaks none of them (${client.join(', ')}), so it surfaces the error to the user and retries nothing.`, 'mech.version-negotiation');
    return changed(state, req);
  }
  if (config.policy.unsupportedVersionNotRetried) {
    settle(req, now, 'failed', `error ${ERROR_CODES.unsupportedProtocolVersion} (unsupported protocol version ${JSON.stringify(requested)}) shown as the tool's failure, although ${listed} and the client speaks ${mutual}`, 'mech.version-negotiation');
    mark(req, { versionNotRetriedAt: now });
    ctx.why(() => `The server rejects ${JSON.stringify(requested)} — ${listed}. The buggy client shows -32022 as the call's failure and keeps declaring ${JSON.stringify(requested)}, so every later call fails the same way; it speaks ${mutual} and SHOULD have retried with it.`, 'mech.version-negotiation');
    return changed(state, req);
  }
  settle(req, now, 'failed', `error ${ERROR_CODES.unsupportedProtocolVersion} (unsupported protocol version ${JSON.stringify(requested)}; ${listed}): the client retries the call with ${mutual}`, 'mech.version-negotiation');
  const next = issueRetry(state, req, nextFreeId(state), 'version', ctx, undefined, mutual);
  mark(next, { versionDeclared: mutual, versionChosen: mutual });
  ctx.why(() => `The server rejects ${JSON.stringify(requested)} — ${listed}: the client picks ${mutual}, the first of its own versions on that list, retries the call at once as ${describeId(next.id)} declaring it, and declares it on every later request.`, 'mech.version-negotiation');
}
