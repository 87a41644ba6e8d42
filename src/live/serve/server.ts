/**
 * The server factory of `mcp-lab serve`: one `McpServer` (official SDK v2) per serving unit — per
 * HTTP request on the 2026-07-28 leg, per session on the 2025-11-25 HTTP leg, per connection on
 * stdio — with the chosen tool set registered on it. The process-wide state (caps, faults,
 * recorder, ledger) lives in the runtime, shared by every instance.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { conformanceServerOptions, type ListChangedNotifier } from '../conformance/fixtures';
import type { Ledger } from './ledger';
import type { ServeRuntime } from './runtime';
import { hasConformanceFixtures, TOOL_SETS, type ToolSetName } from './toolSets';

/** The revisions serve negotiates, newest first. */
export const SERVE_REVISIONS = ['2026-07-28', '2025-11-25'] as const;

/** The server's name and version in `serverInfo`. */
export const SERVE_INFO = { name: 'mcp-lab-serve', version: '1.0.0' } as const;

/** What `createServeServer` needs. */
export interface ServeServerOptions {
  runtime: ServeRuntime;
  ledger: Ledger;
  tools: ToolSetName;
  era: 'modern' | 'legacy';
  /** An instance to register on (for a caller that made its own); default: a new one. */
  server?: McpServer;
  /** Where the conformance fixtures' list-changed triggers publish (the 2026-07-28 HTTP handler's `notify`). */
  notifier?: ListChangedNotifier;
}

/**
 * Makes (or fills) one server instance with the tool set's tools. A set with the conformance
 * fixtures gets their server options too (capabilities, and the SDK-level `requestState` check
 * that answers a tampered state with a JSON-RPC -32602: `conformanceServerOptions`).
 */
export function createServeServer(options: ServeServerOptions): McpServer {
  const fixtures = hasConformanceFixtures(options.tools) ? conformanceServerOptions() : null;
  const server =
    options.server ??
    new McpServer(SERVE_INFO, {
      ...(fixtures ? { requestState: fixtures.requestState } : {}),
      capabilities: { tools: {}, ...(fixtures ? fixtures.capabilities : {}) },
      supportedProtocolVersions: [...SERVE_REVISIONS],
      instructions: 'mcp-lab serve: a server that misbehaves on purpose. Call slow_job for a well-behaved long job, fault_* tools for each failure the lab teaches.',
    });
  const context = { runtime: options.runtime, ledger: options.ledger, era: options.era, ...(options.notifier ? { notifier: options.notifier } : {}) };
  for (const register of TOOL_SETS[options.tools]) register(server, context);
  return server;
}
