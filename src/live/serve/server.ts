/**
 * The server factory of `mcp-lab serve`: one `McpServer` (official SDK v2) per serving unit — per
 * HTTP request on the 2026-07-28 leg, per session on the 2025-11-25 HTTP leg, per connection on
 * stdio — with the chosen tool set registered on it. The process-wide state (caps, faults,
 * recorder, ledger) lives in the runtime, shared by every instance.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { Ledger } from './ledger';
import type { ServeRuntime } from './runtime';
import { TOOL_SETS, type ToolSetName } from './toolSets';

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
}

/** Makes (or fills) one server instance with the tool set's tools. */
export function createServeServer(options: ServeServerOptions): McpServer {
  const server =
    options.server ??
    new McpServer(SERVE_INFO, {
      capabilities: { tools: {} },
      supportedProtocolVersions: [...SERVE_REVISIONS],
      instructions: 'mcp-lab serve: a server that misbehaves on purpose. Call slow_job for a well-behaved long job, fault_* tools for each failure the lab teaches.',
    });
  for (const register of TOOL_SETS[options.tools]) register(server, { runtime: options.runtime, ledger: options.ledger, era: options.era });
  return server;
}
