/**
 * The faults `mcp-lab proxy --fault NAME` applies between a client and a server: the names of the
 * one fault vocabulary (`src/sim/faultVocabulary.ts`) whose effect a man-in-the-middle can produce
 * (dropping, delaying, duplicating, injecting a frame, or cutting the connection). The rest of the
 * vocabulary is server behaviour (progress storms, big results, ledgers…): `mcp-lab serve` has them.
 * Pure: decisions on parsed frames; the proxies do the timing and the I/O.
 */
import { LIVE_FAULTS, parseFaultList, type LiveFaultName } from '../../sim/faultVocabulary';

/** What the proxy does for each fault it supports, and on which transport. */
export const PROXY_FAULTS: Partial<Record<LiveFaultName, { stdio: string | null; http: string | null }>> = {
  'ignore-cancel': { stdio: 'drops every notifications/cancelled from the client (the server never hears it)', http: 'answers a POSTed notifications/cancelled with 202 itself; keeps reading the upstream stream after the client closed it (2026-07-28)' },
  'late-result': { stdio: 'holds each tools/call response for --fault-delay-ms (default 75000)', http: null },
  'duplicate-response': { stdio: 'sends each tools/call response twice', http: null },
  'response-for-unknown-id': { stdio: 'sends, before each tools/call response, a copy of it for an id the client never used', http: null },
  'no-progress': { stdio: 'drops every notifications/progress from the server', http: null },
  'progress-after-result': { stdio: 'after each tools/call response, sends a progress notification for its token', http: null },
  'crash-on-cancel': { stdio: 'kills the server when a notifications/cancelled passes', http: null },
  'stream-cut': { stdio: null, http: 'ends the response stream of each tools/call after its first event, before the result' },
};

/** The proxy's faults for a transport, as `--help` lines. */
export function proxyFaultHelp(): string {
  return Object.entries(PROXY_FAULTS)
    .map(([name, f]) => `${name} — ${[f?.stdio ? `stdio: ${f.stdio}` : null, f?.http ? `http: ${f.http}` : null].filter(Boolean).join('; ')}`)
    .join('; ');
}

/**
 * Parses `--fault NAME[,NAME]` for `transport`.
 * @throws Error naming a fault the vocabulary lacks, or one the proxy cannot apply on that transport (saying which can).
 */
export function parseProxyFaults(text: string, transport: 'stdio' | 'http'): LiveFaultName[] {
  const names = parseFaultList(text);
  for (const n of names) {
    const f = PROXY_FAULTS[n];
    if (!f || f[transport] === null) {
      const can = Object.entries(PROXY_FAULTS).filter(([, v]) => v?.[transport]).map(([k]) => k);
      throw new Error(`--fault ${n}: the proxy cannot apply it on ${transport} (${LIVE_FAULTS[n].does} — that is server behaviour${f ? ' on this transport' : ''}: use mcp-lab serve --fault ${n}); on ${transport} it applies ${can.join(', ')}`);
    }
  }
  return names;
}

/** A parsed JSON-RPC frame, or null for a line that is not one. */
export function parseFrame(line: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(line) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
