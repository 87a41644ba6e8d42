import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The SDK's own Streamable HTTP pair, in process: `StreamableHTTPClientTransport` whose `fetch`
 * option hands each `Request` straight to `WebStandardStreamableHTTPServerTransport.handleRequest`
 * (the web-standard form of `StreamableHTTPServerTransport`, which wraps it for Node's
 * `IncomingMessage`), and gets its `Response` — SSE streams included — back. No socket, no port,
 * no wall clock: every timer is the test's fake timer and the streams advance on promise jobs, so
 * a run is the same on any machine. A stateful session (`Mcp-Session-Id: lab-oracle-session`), SSE
 * responses (not JSON), no event store (2025-11-25 resumability off: the SDK server sends no event
 * ids). `requests` lists every HTTP request made, `"<METHOD> <status>"`, for the tests.
 */
export function httpLink(requests: string[] = []): () => [Transport, Transport] {
  return () => {
    const server = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'lab-oracle-session' });
    const fetchInProcess = async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const res = await server.handleRequest(new Request(url, init));
      requests.push(`${init?.method ?? 'GET'} ${res.status}`);
      return res;
    };
    const client = new StreamableHTTPClientTransport(new URL('http://lab-oracle.invalid/mcp'), { fetch: fetchInProcess });
    return [client, server];
  };
}
