import type { Json } from '../../../sim/types';
import type { MessageEntry } from '../types';
import { isObject, teach, type Call, type CheckModule } from './core';

/**
 * Transport checks: LSP-style framing on stdio, and under 2026-07-28 Streamable HTTP the standard
 * request headers (`basic/transports/streamable-http`, "Standard Request Headers" and "Server
 * Validation"), judged only when the capture carries the request's headers (envelope v2, HAR).
 */

/**
 * Frames with a `Content-Length:` header on stdio. Both revisions: "Messages are delimited by
 * newlines" and "The server MUST NOT write anything to its stdout that is not a valid MCP message"
 * (the client likewise on stdin) — a header line is not a message: an error. One finding per file.
 */
export const contentLengthFraming: CheckModule = {
  def: {
    id: 'content-length-framing',
    title: 'LSP-style Content-Length framing on stdio (MCP stdio is one JSON message per line)',
    rule: 'stdio.newline-delimited',
    ruleText: 'On stdio, messages are delimited by newlines and nothing but valid MCP messages may be written to the pipe (basic/transports): a Content-Length header is LSP framing, which an MCP peer reads as a line that is not JSON.',
    severity: 'error',
    teaches: teach('races', 'I1-receive-loop-dies'),
  },
  create() {
    const framed: (MessageEntry | import('../types').MetaEntry)[] = [];
    let count = 0;
    return {
      visit(e) {
        const hit = (e.type === 'message' && e.framing === 'content-length' && e.transport !== 'streamable-http') || (e.type === 'meta' && e.kind === 'framing');
        if (!hit) return;
        count++;
        if (framed.length < 3) framed.push(e as MessageEntry);
      },
      finish(ctx) {
        if (count === 0) return;
        ctx.add('content-length-framing', `${count} frame${count === 1 ? '' : 's'} came with a Content-Length header (first at ${framed[0].atMs} ms, line ${framed[0].line}): that is LSP framing; MCP stdio carries one JSON-RPC message per line, and a peer reading lines sees the header as garbage and may answer one message behind.`, framed, []);
      },
    };
  },
};

/** Methods whose 2026-07-28 HTTP request carries `Mcp-Name` (from `params.name`, or `params.uri` for resources/read). */
const NAMED: Record<string, 'name' | 'uri'> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };

/** Decodes the Base64 sentinel `=?base64?…?=` of a header value; other values as they are. */
function decodeHeader(value: string): string {
  const m = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!m) return value;
  try {
    const bytes = Uint8Array.from(atob(m[1]), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return value;
  }
}

/** The header problems of one 2026-07-28 HTTP request: each names the header and what was wrong (empty when the headers are right). */
export function headerProblems(m: Record<string, Json>, headers: Record<string, string>): string[] {
  const problems: string[] = [];
  const method = m.method as string;
  const got = headers['mcp-method'];
  if (got === undefined) problems.push('no Mcp-Method header');
  else if (got !== method) problems.push(`Mcp-Method is ${JSON.stringify(got)} but the body's method is ${JSON.stringify(method)}`);
  const params = isObject(m.params) ? m.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const version = headers['mcp-protocol-version'];
  const bodyVersion = meta['io.modelcontextprotocol/protocolVersion'];
  if (version === undefined) problems.push('no MCP-Protocol-Version header');
  else if (typeof bodyVersion === 'string' && version !== bodyVersion) problems.push(`MCP-Protocol-Version is ${JSON.stringify(version)} but the body's _meta protocolVersion is ${JSON.stringify(bodyVersion)}`);
  const field = NAMED[method];
  if (field) {
    const name = headers['mcp-name'];
    const bodyName = params[field];
    if (name === undefined) problems.push(`no Mcp-Name header (required for ${method}: params.${field})`);
    else if (typeof bodyName === 'string' && decodeHeader(name) !== bodyName) problems.push(`Mcp-Name is ${JSON.stringify(name)} but params.${field} is ${JSON.stringify(bodyName)}`);
  }
  return problems;
}

/** Whether `m` is the HeaderMismatch rejection: error −32020 (with HTTP 400 when the status was recorded). */
const isHeaderMismatch = (e: MessageEntry, m: Record<string, Json> | null) => !!m && isObject(m.error) && m.error.code === -32020 && (e.status ?? e.http?.status ?? 400) === 400;

const isHttp2026Request = (e: MessageEntry, revision: string) => revision === '2026-07-28' && e.direction === 'c2s' && e.kind === 'request' && e.transport === 'streamable-http' && e.http?.headers !== undefined && (e.http.method ?? 'POST') === 'POST';

/** A client POST under 2026-07-28 without (or with mismatched) `Mcp-Method`, `MCP-Protocol-Version` or `Mcp-Name` (all MUST / REQUIRED). */
export const httpHeaders2026: CheckModule = {
  def: {
    id: 'http-headers-2026',
    title: 'A 2026-07-28 HTTP request without its required headers (Mcp-Method, Mcp-Name, MCP-Protocol-Version)',
    rule: 'http.standard-headers',
    ruleText: 'Under 2026-07-28 every POST carries MCP-Protocol-Version and Mcp-Method, and tools/call, resources/read and prompts/get carry Mcp-Name, each matching the body (basic/transports/streamable-http: REQUIRED, MUST).',
    severity: 'error',
    teaches: teach('races', 'M1-mrtr-confirm-transfer', 'policy.mcpNameHeaderOmitted=true'),
  },
  create() {
    return {
      visit(e, m, o, ctx) {
        if (o.kind !== 'request' || !m || e.type !== 'message' || !isHttp2026Request(e, ctx.revision)) return;
        const problems = headerProblems(m, (e.http as { headers: Record<string, string> }).headers);
        if (problems.length === 0) return;
        ctx.add('http-headers-2026', `The client's POST of ${o.call.method} ${o.call.idKey} at ${e.atMs} ms (line ${e.line}): ${problems.join('; ')}.`, [e], [o.call.id]);
      },
    };
  },
};

/** A server that answered a request whose required headers were missing or mismatched other than with 400 and −32020 (HeaderMismatch: MUST reject). */
export const httpHeaderNotRejected: CheckModule = {
  def: {
    id: 'http-header-not-rejected',
    title: 'The server accepted a 2026-07-28 HTTP request whose headers were missing or wrong (no 400 / −32020)',
    rule: 'http.header-mismatch',
    ruleText: 'A server that processes the body MUST reject a request whose required headers are missing or do not match it, with HTTP 400 and JSON-RPC error −32020 HeaderMismatch (basic/transports/streamable-http, Server Validation).',
    severity: 'error',
    teaches: teach('races', 'M1-mrtr-confirm-transfer', 'policy.mcpNameHeaderOmitted=true'),
  },
  create() {
    /** The requests with header problems, until their response. */
    const flagged = new Map<Call, string[]>();
    return {
      visit(e, m, o, ctx) {
        if (e.type !== 'message') return;
        if (o.kind === 'request') {
          if (!m || !isHttp2026Request(e, ctx.revision)) return;
          const problems = headerProblems(m, (e.http as { headers: Record<string, string> }).headers);
          if (problems.length > 0) flagged.set(o.call, problems);
          return;
        }
        if (o.kind !== 'response' || !o.call) return;
        const problems = flagged.get(o.call);
        if (!problems) return;
        flagged.delete(o.call);
        if (isHeaderMismatch(e, m)) return;
        const status = e.status ?? e.http?.status;
        ctx.add(
          'http-header-not-rejected',
          `The server answered ${o.call.method} ${o.call.idKey} at ${e.atMs} ms with ${m && 'error' in m ? `an error${isObject(m.error) ? ` ${String(m.error.code)}` : ''}` : 'a result'}${status !== undefined ? ` (HTTP ${status})` : ''}, though the request had ${problems.join('; ')}: it MUST reject it with HTTP 400 and error −32020 (HeaderMismatch).`,
          [o.call.entry, e],
          [o.call.id],
          undefined,
          e,
        );
      },
    };
  },
};
