/**
 * `npm run spec-examples`: writes the golden 2026-07-28 transcripts under
 * src/wire/transcript/__tests__/fixtures/spec-2026/ — the specification's own example messages,
 * strung into sessions a reader recognises (a request, then the result or error the spec gives for
 * it; notifications where they fit), as capture-envelope JSONL (docs/capture-envelope.md), plus a
 * README.md listing each file and its sources.
 *
 * The examples are read from the vendored data files, never copied by hand:
 * `src/wire/mcp-schema/examples/2026-07-28.json` (the schema's examples and the spec pages' JSON
 * blocks, modelcontextprotocol/modelcontextprotocol) and `src/wire/ext-tasks/examples.json` (the
 * tasks extension page, modelcontextprotocol/ext-tasks); scripts/vendor-spec-examples.ts made them.
 * Every frame's `text` names the example it is and what was changed, and only these changes are
 * made:
 *
 * - ids, so that a request and its answer pair (an error object of the schema gets the id of the
 *   request it answers; a page's ids are kept where they already pair);
 * - a request the page abbreviates gets the `_meta` every 2026-07-28 request carries
 *   (basic/versioning: "Every request declares the protocol version it is using in its _meta
 *   field"; the tools and MRTR pages: "For brevity, the request examples on this page omit the
 *   `_meta` request metadata"), taken from the schema's CallToolRequest example — and on the tasks
 *   page the per-request capability block the page itself gives (tasks.md#1) — without overriding
 *   anything the request sets;
 * - where one example names a value another must carry (the -32020 example's header and body
 *   values, the -32022 example's requested and supported versions, the task id a tasks/get asks
 *   for), the value is read from that example.
 *
 * src/wire/transcript/__tests__/specExamples.test.ts fails when the files are stale, and replays each
 * through `check` with the findings the spec text implies.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import specData from '../src/wire/mcp-schema/examples/2026-07-28.json' with { type: 'json' };
import tasksData from '../src/wire/ext-tasks/examples.json' with { type: 'json' };
import { captureLine, type CaptureFrame, type CaptureHttp } from '../src/wire/transcript/capture';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the golden transcripts live (relative to the project root). */
export const SPEC_FIXTURES_DIR = 'src/wire/transcript/__tests__/fixtures/spec-2026';

type J = Record<string, unknown>;
interface Block {
  key: string;
  heading: string;
  label: string;
  http?: { method: string; path: string; headers: Record<string, string> };
  json: unknown;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const spec = specData as unknown as { source: { commit: string }; schemaExamples: Record<string, unknown>; pages: Record<string, Block> };
const tasks = tasksData as unknown as { source: { commit: string }; blocks: Record<string, Block> };

/** A schema example (`<Type>/<name>`), copied. */
function ex(name: string): J {
  const v = spec.schemaExamples[name];
  if (v === undefined) throw new Error(`no schema example ${name}`);
  return clone(v) as J;
}

/** A block of a vendored page, copied; `expect` must occur in its heading or label (so a re-vendored page that moved its blocks fails here, not silently). */
function block(blocks: Record<string, Block>, key: string, expect: string): Block {
  const b = blocks[key];
  if (!b) throw new Error(`no block ${key}`);
  if (!`${b.heading} | ${b.label}`.includes(expect)) throw new Error(`${key} is under "${b.heading}" / "${b.label}", not "${expect}": the page changed — update scripts/spec-examples.ts`);
  return clone(b);
}
const pageBlock = (key: string, expect: string) => block(spec.pages, key, expect);
const taskBlock = (key: string, expect: string) => block(tasks.blocks, key, expect).json as J;

const params = (m: J) => (m.params ??= {}) as J;
const resultOf = (m: J) => m.result as J;

/** `m` with `id` (a JSON-RPC request or response). */
function withId(m: J, id: string | number): J {
  return { jsonrpc: m.jsonrpc, id, ...Object.fromEntries(Object.entries(m).filter(([k]) => k !== 'jsonrpc' && k !== 'id')) };
}

/** A response of `id` carrying the schema's bare error object `error`. */
const errorResponse = (id: string | number, error: J): J => ({ jsonrpc: '2.0', id, error });
/** A response of `id` carrying the schema's bare result object `result`. */
const resultResponse = (id: string | number, result: J): J => ({ jsonrpc: '2.0', id, result });

/** The `_meta` of the schema's CallToolRequest example: what every 2026-07-28 request carries. */
const REQUEST_META = () => (ex('CallToolRequest/call-tool-request').params as J)._meta as J;

/** Adds to `m.params._meta` the keys of `meta` it lacks (the request's own keys win). */
function withMeta(m: J, meta: J): J {
  const p = params(m);
  p._meta = { ...meta, ...((p._meta as J | undefined) ?? {}) };
  return m;
}

/** The `_meta` a tasks-page request gets: the schema's, with the page's own per-request capability block (tasks.md#1) declaring the extension. */
const TASKS_META = () => ({ ...REQUEST_META(), ...((taskBlock('tasks.md#1', 'Capability Negotiation').params as J)._meta as J) });

/** The standard request headers of a 2026-07-28 POST (basic/transports/streamable-http: Mcp-Method always; Mcp-Name for tools/call, resources/read, prompts/get; MCP-Protocol-Version from `_meta`). */
function requestHeaders(m: J): Record<string, string> {
  const p = (m.params ?? {}) as J;
  const h: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const version = ((p._meta ?? {}) as J)['io.modelcontextprotocol/protocolVersion'];
  if (typeof version === 'string') h['mcp-protocol-version'] = version;
  h['mcp-method'] = String(m.method);
  const name = m.method === 'resources/read' ? p.uri : m.method === 'tools/call' || m.method === 'prompts/get' ? p.name : undefined;
  if (typeof name === 'string') h['mcp-name'] = name;
  return h;
}

/** An HTTP page block's headers with lower-case names, as the capture envelope writes them. */
const lowerHeaders = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));

const T0 = Date.UTC(2026, 6, 28, 9, 0, 0);

/** One golden transcript being written: frames at growing times. */
class Session {
  private t = T0;
  readonly lines: string[] = [];
  private stream = 0;
  constructor(
    readonly transport: 'stdio' | 'http',
    title: string,
  ) {
    this.frame({ direction: 'meta', event: 'note', text: `Golden transcript: ${title}. Written by scripts/spec-examples.ts (npm run spec-examples) from the specification's own examples; each frame's text names its source. Do not edit.` });
  }
  private frame(f: Omit<CaptureFrame, 'ts' | 'transport'>, after = 0): void {
    this.t += after;
    this.lines.push(captureLine({ ts: new Date(this.t).toISOString(), transport: this.transport, ...f }));
  }
  /** The client sends `m` (`after` ms after the line before); over HTTP a POST with `headers` (default: the standard request headers of `m`). */
  c2s(m: J, text: string, after = 100, headers?: Record<string, string>): void {
    const http: CaptureHttp | undefined = this.transport === 'http' ? { method: 'POST', path: '/mcp', headers: headers ?? requestHeaders(m) } : undefined;
    if ('id' in m && this.transport === 'http') this.stream++;
    this.frame({ direction: 'c2s', ...(http ? { http } : {}), text, raw: JSON.stringify(m) }, after);
  }
  /** The server sends `m`; over HTTP on the response stream of the last POST (`sse`: an event stream, else one JSON body), with `status`. */
  s2c(m: J, text: string, after = 100, opts: { status?: number; sse?: boolean } = {}): void {
    const status = opts.status ?? 200;
    const http: CaptureHttp | undefined = this.transport === 'http' ? { status, headers: { 'content-type': opts.sse ? 'text/event-stream' : 'application/json' } } : undefined;
    this.frame({ direction: 's2c', ...(http ? { status, http, streamId: String(this.stream) } : {}), text, raw: JSON.stringify(m) }, after);
  }
  /** A meta line (`stream-close` of the last POST's stream, a note). */
  meta(f: Omit<CaptureFrame, 'ts' | 'transport' | 'direction'>, after = 100): void {
    this.frame({ direction: 'meta', ...(f.event === 'stream-close' ? { streamId: String(this.stream) } : {}), ...f }, after);
  }
  text(): string {
    return this.lines.join('');
  }
}

/** One golden transcript: its file, what it shows, the examples it is made of, and how it is built. */
export interface SpecFixture {
  file: string;
  title: string;
  transport: 'stdio' | 'http';
  /** The examples used, by name (schema `<Type>/<name>`, page `<page>#<n>`, `tasks.md#<n>`). */
  sources: string[];
  /** What the spec text says of this session (the README and the test repeat it). */
  spec: string;
  build(s: Session): void;
}

const S = (name: string) => `schema example ${name}`;

/** The golden transcripts. */
export const SPEC_FIXTURES: readonly SpecFixture[] = [
  {
    file: 'tools-call-progress.jsonl',
    title: 'server/discover, tools/list, then a tools/call with a progress token, its progress and its result',
    transport: 'stdio',
    sources: ['DiscoverRequest/server-discover-request', 'DiscoverResultResponse/discover-result-response', 'ListToolsRequest/list-tools-request', 'ListToolsResultResponse/list-tools-result-response', 'CallToolRequest/call-tool-request', 'CallToolRequestParams/tool-call-params-with-progress-token', 'ProgressNotification/progress-message', 'CallToolResultResponse/call-tool-result-response'],
    spec: 'A correct session: every request declares its version in _meta, every response carries its request\'s id and a resultType, progress uses the token the request carried and stops with the result.',
    build(s) {
      s.c2s(ex('DiscoverRequest/server-discover-request'), S('DiscoverRequest/server-discover-request'));
      s.s2c(ex('DiscoverResultResponse/discover-result-response'), S('DiscoverResultResponse/discover-result-response'));
      s.c2s(ex('ListToolsRequest/list-tools-request'), S('ListToolsRequest/list-tools-request'));
      s.s2c(ex('ListToolsResultResponse/list-tools-result-response'), S('ListToolsResultResponse/list-tools-result-response'));
      const call = ex('CallToolRequest/call-tool-request');
      call.params = ex('CallToolRequestParams/tool-call-params-with-progress-token');
      s.c2s(call, `${S('CallToolRequest/call-tool-request')} with the params of CallToolRequestParams/tool-call-params-with-progress-token (progressToken "oivaizmir")`);
      s.s2c(ex('ProgressNotification/progress-message'), S('ProgressNotification/progress-message'), 500);
      s.s2c(ex('CallToolResultResponse/call-tool-result-response'), S('CallToolResultResponse/call-tool-result-response'), 500);
    },
  },
  {
    file: 'cancellation-stdio.jsonl',
    title: 'a tools/call cancelled with notifications/cancelled on stdio, and no response after it',
    transport: 'stdio',
    sources: ['CallToolRequest/call-tool-request', 'CallToolRequestParams/tool-call-params-with-progress-token', 'ProgressNotification/progress-message', 'CancelledNotification/user-requested-cancellation'],
    spec: 'basic/patterns/cancellation: "stdio: … The client MUST send a notifications/cancelled notification referencing the request ID"; the server SHOULD "Not send a response for the cancelled request". A correct session.',
    build(s) {
      const cancel = ex('CancelledNotification/user-requested-cancellation');
      const id = (cancel.params as J).requestId as string;
      const call = withId(ex('CallToolRequest/call-tool-request'), id);
      call.params = ex('CallToolRequestParams/tool-call-params-with-progress-token');
      s.c2s(call, `${S('CallToolRequest/call-tool-request')} with the params of CallToolRequestParams/tool-call-params-with-progress-token; id → ${JSON.stringify(id)}, the id the cancellation example names`);
      s.s2c(ex('ProgressNotification/progress-message'), S('ProgressNotification/progress-message'), 500);
      s.c2s(cancel, S('CancelledNotification/user-requested-cancellation'), 1000);
    },
  },
  {
    file: 'cancellation-http.jsonl',
    title: 'a tools/call over Streamable HTTP cancelled by closing its response stream',
    transport: 'http',
    sources: ['CallToolRequest/call-tool-request', 'CallToolRequestParams/tool-call-params-with-progress-token', 'ProgressNotification/progress-message', 'CancelledNotification/user-requested-cancellation'],
    spec: 'basic/patterns/cancellation: "Streamable HTTP: Closing the SSE response stream is the cancellation signal. The server MUST treat a client disconnect as cancellation of that request. No notifications/cancelled message is required or expected." A correct session (the cancellation example\'s id, no notification).',
    build(s) {
      const id = (ex('CancelledNotification/user-requested-cancellation').params as J).requestId as string;
      const call = withId(ex('CallToolRequest/call-tool-request'), id);
      call.params = ex('CallToolRequestParams/tool-call-params-with-progress-token');
      s.c2s(call, `${S('CallToolRequest/call-tool-request')} with the params of CallToolRequestParams/tool-call-params-with-progress-token; id → ${JSON.stringify(id)}, the id the cancellation example names; the standard headers of streamable-http`);
      s.s2c(ex('ProgressNotification/progress-message'), S('ProgressNotification/progress-message'), 500, { sse: true });
      s.meta({ event: 'stream-close', requestId: id, cause: 'cancel', text: 'the client closes the response stream: the 2026-07-28 cancellation on Streamable HTTP' }, 1000);
    },
  },
  {
    file: 'mrtr.jsonl',
    title: 'MRTR: a tools/call answered with an InputRequiredResult, retried with inputResponses and the echoed requestState under a new id; then a requestState-only round',
    transport: 'stdio',
    sources: ['CallToolRequest/call-tool-request', 'ClientCapabilities/elicitation-form-only-implicit', 'ClientCapabilities/sampling-minimum-baseline-support', 'InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state', 'InputResponses/elicitation-and-sampling-input-responses', 'InputRequiredResult/input-required-result-with-request-state-only', 'CallToolResultResponse/call-tool-result-response'],
    spec: 'basic/patterns/mrtr: the client declares elicitation and sampling, so the server may ask for both; the retry echoes requestState exactly, answers every inputRequests key and uses a new id ("The JSON-RPC id MUST be different between the initial request and the retry"); with requestState only "the client MAY retry the original request immediately". A correct session.',
    build(s) {
      const caps = { ...ex('ClientCapabilities/elicitation-form-only-implicit'), ...ex('ClientCapabilities/sampling-minimum-baseline-support') };
      const first = ex('CallToolRequest/call-tool-request');
      ((first.params as J)._meta as J)['io.modelcontextprotocol/clientCapabilities'] = caps;
      const capsNote = 'clientCapabilities → ClientCapabilities/elicitation-form-only-implicit + ClientCapabilities/sampling-minimum-baseline-support';
      s.c2s(first, `${S('CallToolRequest/call-tool-request')}; ${capsNote}`);
      const ask = ex('InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state');
      s.s2c(resultResponse(first.id as string, ask), `${S('InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state')} as the result of ${JSON.stringify(first.id)}`);
      const retry = withId(clone(first), `${first.id as string}-retry`);
      Object.assign(params(retry), { inputResponses: ex('InputResponses/elicitation-and-sampling-input-responses'), requestState: ask.requestState });
      s.c2s(retry, `the same request under a new id, with inputResponses = ${S('InputResponses/elicitation-and-sampling-input-responses')} and the requestState echoed`, 2000);
      s.s2c(withId(ex('CallToolResultResponse/call-tool-result-response'), retry.id as string), `${S('CallToolResultResponse/call-tool-result-response')}; id → the retry's`);
      const second = withId(clone(first), `${first.id as string}-state`);
      s.c2s(second, `${S('CallToolRequest/call-tool-request')}; ${capsNote}; id → a new one`, 500);
      const stateOnly = ex('InputRequiredResult/input-required-result-with-request-state-only');
      s.s2c(resultResponse(second.id as string, stateOnly), `${S('InputRequiredResult/input-required-result-with-request-state-only')} as its result`);
      const again = withId(clone(second), `${second.id as string}-retry`);
      params(again).requestState = stateOnly.requestState;
      s.c2s(again, 'retried at once under a new id with the requestState echoed (no inputRequests, so nothing to ask the user)', 10);
      s.s2c(withId(ex('CallToolResultResponse/call-tool-result-response'), again.id as string), `${S('CallToolResultResponse/call-tool-result-response')}; id → the retry's`);
    },
  },
  {
    file: 'mrtr-undeclared-capability.jsonl',
    title: 'MRTR where the server asks for elicitation and sampling the client did not declare',
    transport: 'stdio',
    sources: ['CallToolRequest/call-tool-request', 'InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state'],
    spec: 'basic/patterns/mrtr: "Servers MUST NOT send an inputRequests that the client has not declared support for in its capabilities." The CallToolRequest example declares clientCapabilities {}, so the InputRequiredResult example, as its answer, breaks that MUST (twice: elicitation/create and sampling/createMessage). The right answer is -32021 (missing-capability.jsonl).',
    build(s) {
      const call = ex('CallToolRequest/call-tool-request');
      s.c2s(call, `${S('CallToolRequest/call-tool-request')} (clientCapabilities {})`);
      s.s2c(resultResponse(call.id as string, ex('InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state')), `${S('InputRequiredResult/input-required-result-with-elicitation-and-sampling-and-request-state')} as its result`);
    },
  },
  {
    file: 'missing-capability.jsonl',
    title: 'a tools/call the server can only serve with elicitation, from a client that declares none: -32021',
    transport: 'stdio',
    sources: ['CallToolRequest/call-tool-request', 'MissingRequiredClientCapabilityError/missing-elicitation-capability'],
    spec: 'schema MissingRequiredClientCapabilityError (-32021): the server tells a client that declared clientCapabilities {} which capability the request needs. A correct session.',
    build(s) {
      const err = ex('MissingRequiredClientCapabilityError/missing-elicitation-capability');
      s.c2s(withId(ex('CallToolRequest/call-tool-request'), err.id as number), `${S('CallToolRequest/call-tool-request')} (clientCapabilities {}); id → ${String(err.id)}, the error example's`);
      s.s2c(err, S('MissingRequiredClientCapabilityError/missing-elicitation-capability'));
    },
  },
  {
    file: 'version-negotiation.jsonl',
    title: 'a request declaring an unsupported version gets -32022 and is retried with a supported one',
    transport: 'stdio',
    sources: ['CallToolRequest/call-tool-request', 'UnsupportedProtocolVersionError/unsupported-version', 'CallToolResultResponse/call-tool-result-response'],
    spec: 'basic/versioning: the server "MUST respond with an UnsupportedProtocolVersionError listing the versions it does support"; "The client SHOULD select a mutually supported version from the supported list and retry the request". A correct session, spoken in 2026-07-28.',
    build(s) {
      const err = ex('UnsupportedProtocolVersionError/unsupported-version');
      const data = (err.error as J).data as { supported: string[]; requested: string };
      const first = withId(ex('CallToolRequest/call-tool-request'), err.id as number);
      ((first.params as J)._meta as J)['io.modelcontextprotocol/protocolVersion'] = data.requested;
      s.c2s(first, `${S('CallToolRequest/call-tool-request')}; id → ${String(err.id)} and protocolVersion → ${JSON.stringify(data.requested)}, the error example's`);
      s.s2c(err, S('UnsupportedProtocolVersionError/unsupported-version'));
      const retry = withId(ex('CallToolRequest/call-tool-request'), (err.id as number) + 1);
      ((retry.params as J)._meta as J)['io.modelcontextprotocol/protocolVersion'] = data.supported[0];
      s.c2s(retry, `retried under a new id with protocolVersion ${JSON.stringify(data.supported[0])}, the first of the error's supported list`);
      s.s2c(withId(ex('CallToolResultResponse/call-tool-result-response'), retry.id as number), `${S('CallToolResultResponse/call-tool-result-response')}; id → the retry's`, 400);
    },
  },
  {
    file: 'http-headers.jsonl',
    title: 'Streamable HTTP POSTs with the standard headers (the transport page\'s tools/call and resources/read), answered',
    transport: 'http',
    sources: ['basic/transports/streamable-http.mdx#1', 'basic/transports/streamable-http.mdx#2', 'CallToolResultResponse/call-tool-result-response', 'ReadResourceResultResponse/read-resource-result-response-with-ttl'],
    spec: 'basic/transports/streamable-http, Standard Request Headers: Mcp-Method on every POST, Mcp-Name for tools/call and resources/read, MCP-Protocol-Version matching _meta. A correct session.',
    build(s) {
      const call = pageBlock('basic/transports/streamable-http.mdx#1', 'tools/call');
      s.c2s(call.json as J, 'basic/transports/streamable-http.mdx#1 (`tools/call` request), headers as the page writes them', 100, lowerHeaders(call.http!.headers));
      s.s2c(withId(ex('CallToolResultResponse/call-tool-result-response'), (call.json as J).id as number), `${S('CallToolResultResponse/call-tool-result-response')}; id → the request's`);
      const read = pageBlock('basic/transports/streamable-http.mdx#2', 'resources/read');
      s.c2s(read.json as J, 'basic/transports/streamable-http.mdx#2 (`resources/read` request), headers as the page writes them', 100, lowerHeaders(read.http!.headers));
      const answer = withId(ex('ReadResourceResultResponse/read-resource-result-response-with-ttl'), (read.json as J).id as number);
      s.s2c(answer, `${S('ReadResourceResultResponse/read-resource-result-response-with-ttl')}; id → the request's`);
    },
  },
  {
    file: 'http-header-mismatch.jsonl',
    title: 'a POST whose Mcp-Name header does not match the body, rejected with 400 and -32020',
    transport: 'http',
    sources: ['basic/transports/streamable-http.mdx#1', 'HeaderMismatchError/header-mismatch'],
    spec: 'basic/transports/streamable-http: the headers are REQUIRED and must match the body; a server MUST reject a mismatch with 400 Bad Request and HeaderMismatch (-32020). The -32020 example says header \'foo\', body \'bar\': the client broke the rule, the server answered as it must.',
    build(s) {
      const err = ex('HeaderMismatchError/header-mismatch');
      const [, header, body] = /header value '([^']*)' does not match body value '([^']*)'/.exec((err.error as J).message as string) ?? [];
      if (header === undefined) throw new Error('HeaderMismatchError/header-mismatch: its message no longer names the two values');
      const call = pageBlock('basic/transports/streamable-http.mdx#1', 'tools/call');
      const m = withId(call.json as J, err.id as number);
      params(m).name = body;
      const headers = { ...lowerHeaders(call.http!.headers), 'mcp-name': header };
      s.c2s(m, `basic/transports/streamable-http.mdx#1; params.name → ${JSON.stringify(body)} and the Mcp-Name header → ${JSON.stringify(header)}, the two values the -32020 example names`, 100, headers);
      s.s2c(err, S('HeaderMismatchError/header-mismatch'), 20, { status: 400 });
    },
  },
  {
    file: 'caching-hints-missing.jsonl',
    title: "resources/read answered with the schema's ReadResourceResultResponse example that has no caching hints",
    transport: 'stdio',
    sources: ['ReadResourceRequest/read-resource-request', 'ReadResourceResultResponse/read-resource-result-response', 'ReadResourceResultResponse/read-resource-result-response-with-ttl'],
    spec: 'server/utilities/caching: "Servers MUST include caching hints on results with resultType: "complete" returned by … resources/read", and the schema\'s ReadResourceResult requires ttlMs and cacheScope; the example read-resource-result-response has neither — the example itself breaks that MUST (its sibling read-resource-result-response-with-ttl, which has both, is the right answer).',
    build(s) {
      s.c2s(ex('ReadResourceRequest/read-resource-request'), S('ReadResourceRequest/read-resource-request'));
      s.s2c(ex('ReadResourceResultResponse/read-resource-result-response'), `${S('ReadResourceResultResponse/read-resource-result-response')} (same id as the request example)`);
      const again = withId(ex('ReadResourceRequest/read-resource-request'), ex('ReadResourceResultResponse/read-resource-result-response-with-ttl').id as string);
      s.c2s(again, `${S('ReadResourceRequest/read-resource-request')}; id → the with-ttl response example's`, 1000);
      s.s2c(ex('ReadResourceResultResponse/read-resource-result-response-with-ttl'), S('ReadResourceResultResponse/read-resource-result-response-with-ttl'));
    },
  },
  {
    file: 'errors.jsonl',
    title: 'the schema\'s error examples, each answering the request it describes',
    transport: 'stdio',
    sources: ['CallToolRequest/call-tool-request', 'InvalidParamsError/unknown-tool', 'InvalidParamsError/invalid-tool-arguments', 'GetPromptRequest/get-prompt-request', 'InvalidParamsError/unknown-prompt', 'ListToolsRequest/list-tools-request', 'PaginatedRequestParams/list-with-cursor', 'InvalidParamsError/invalid-cursor', 'ListPromptsRequest/list-prompts-request', 'MethodNotFoundError/prompts-not-supported', 'ReadResourceRequest/read-resource-request', 'InternalError/unexpected-error', 'ParseError/invalid-json'],
    spec: 'basic/index, Error Responses: each carries the id of the request it answers, "except in error cases where the ID could not be read due a malformed request" — the parse error answers a line that is not JSON and has no id. A correct session.',
    build(s) {
      const named = (e: J, re: RegExp) => {
        const hit = re.exec(e.message as string);
        if (!hit) throw new Error(`error example "${String(e.message)}" no longer names what ${String(re)} reads`);
        return hit[1];
      };
      const unknownTool = ex('InvalidParamsError/unknown-tool');
      const a = withId(ex('CallToolRequest/call-tool-request'), 1);
      params(a).name = named(unknownTool, /^Unknown tool: (\S+)$/);
      s.c2s(a, `${S('CallToolRequest/call-tool-request')}; id → 1, name → the tool the error names`);
      s.s2c(errorResponse(1, unknownTool), `${S('InvalidParamsError/unknown-tool')} as the error of 1`);
      const badArgs = ex('InvalidParamsError/invalid-tool-arguments');
      const b = withId(ex('CallToolRequest/call-tool-request'), 2);
      params(b).name = named(badArgs, /^Invalid arguments for tool (\S+):/);
      params(b).arguments = {};
      s.c2s(b, `${S('CallToolRequest/call-tool-request')}; id → 2, name → the tool the error names, arguments → {} (without the property the error says is missing)`);
      s.s2c(errorResponse(2, badArgs), `${S('InvalidParamsError/invalid-tool-arguments')} as the error of 2`);
      const unknownPrompt = ex('InvalidParamsError/unknown-prompt');
      const c = withId(ex('GetPromptRequest/get-prompt-request'), 3);
      params(c).name = named(unknownPrompt, /^Unknown prompt: (\S+)$/);
      s.c2s(c, `${S('GetPromptRequest/get-prompt-request')}; id → 3, name → the prompt the error names`);
      s.s2c(errorResponse(3, unknownPrompt), `${S('InvalidParamsError/unknown-prompt')} as the error of 3`);
      const d = withId(ex('ListToolsRequest/list-tools-request'), 4);
      d.params = ex('PaginatedRequestParams/list-with-cursor');
      s.c2s(d, `${S('ListToolsRequest/list-tools-request')} with the params of PaginatedRequestParams/list-with-cursor; id → 4`);
      s.s2c(errorResponse(4, ex('InvalidParamsError/invalid-cursor')), `${S('InvalidParamsError/invalid-cursor')} as the error of 4`);
      s.c2s(withId(ex('ListPromptsRequest/list-prompts-request'), 5), `${S('ListPromptsRequest/list-prompts-request')}; id → 5`);
      s.s2c(errorResponse(5, ex('MethodNotFoundError/prompts-not-supported')), `${S('MethodNotFoundError/prompts-not-supported')} as the error of 5`);
      s.c2s(withId(ex('ReadResourceRequest/read-resource-request'), 6), `${S('ReadResourceRequest/read-resource-request')}; id → 6`);
      s.s2c(errorResponse(6, ex('InternalError/unexpected-error')), `${S('InternalError/unexpected-error')} as the error of 6`);
      s.meta({ event: 'note', text: 'the client writes a line that is not JSON (the next frame is the server\'s parse error; a capture cannot hold the line itself as a frame)' });
      s.s2c({ jsonrpc: '2.0', error: ex('ParseError/invalid-json') }, `${S('ParseError/invalid-json')}, with no id: the request's could not be read`);
    },
  },
  {
    file: 'subscriptions.jsonl',
    title: 'subscriptions/listen as the subscriptions page gives it: acknowledged, one resource update, closed gracefully',
    transport: 'stdio',
    sources: ['basic/patterns/subscriptions.mdx#1', 'basic/patterns/subscriptions.mdx#2', 'basic/patterns/subscriptions.mdx#3', 'basic/patterns/subscriptions.mdx#4'],
    spec: 'basic/patterns/subscriptions: the server MUST send notifications/subscriptions/acknowledged first, sends only what was requested (the update is for the one subscribed URI), and SHOULD end with a successful response carrying the subscriptionId. A correct session.',
    build(s) {
      s.c2s(pageBlock('basic/patterns/subscriptions.mdx#1', 'Opening a Stream').json as J, 'basic/patterns/subscriptions.mdx#1 (Opening a Stream)');
      s.s2c(pageBlock('basic/patterns/subscriptions.mdx#2', 'Acknowledgment').json as J, 'basic/patterns/subscriptions.mdx#2 (Acknowledgment)');
      s.s2c(pageBlock('basic/patterns/subscriptions.mdx#3', 'Receiving Notifications').json as J, 'basic/patterns/subscriptions.mdx#3 (Receiving Notifications)', 5000);
      s.s2c(pageBlock('basic/patterns/subscriptions.mdx#4', 'Graceful Closure').json as J, 'basic/patterns/subscriptions.mdx#4 (Graceful Closure)', 5000);
    },
  },
  {
    file: 'subscriptions-unrequested.jsonl',
    title: "the schema's subscription examples on one stream: two notifications the listen request did not ask for",
    transport: 'stdio',
    sources: ['SubscriptionsListenRequest/listen-for-list-changes', 'SubscriptionsAcknowledgedNotification/listen-acknowledged', 'ToolListChangedNotification/tools-list-changed', 'PromptListChangedNotification/prompts-list-changed', 'ResourceUpdatedNotification/file-resource-updated-notification', 'SubscriptionsListenResultResponse/listen-closed-response'],
    spec: 'basic/patterns/subscriptions: "The server MUST NOT send notification types the client has not explicitly requested." The listen example asks for toolsListChanged and resourceSubscriptions ["file:///project/config.json"]; on its subscription "listen-1" the schema\'s prompts/list_changed example (not requested) and resources/updated example (for file:///project/src/main.rs, not subscribed) each break that MUST.',
    build(s) {
      s.c2s(ex('SubscriptionsListenRequest/listen-for-list-changes'), S('SubscriptionsListenRequest/listen-for-list-changes'));
      s.s2c(ex('SubscriptionsAcknowledgedNotification/listen-acknowledged'), S('SubscriptionsAcknowledgedNotification/listen-acknowledged'));
      s.s2c(ex('ToolListChangedNotification/tools-list-changed'), S('ToolListChangedNotification/tools-list-changed'), 5000);
      s.s2c(ex('PromptListChangedNotification/prompts-list-changed'), S('PromptListChangedNotification/prompts-list-changed'), 5000);
      s.s2c(ex('ResourceUpdatedNotification/file-resource-updated-notification'), S('ResourceUpdatedNotification/file-resource-updated-notification'), 5000);
      s.s2c(ex('SubscriptionsListenResultResponse/listen-closed-response'), S('SubscriptionsListenResultResponse/listen-closed-response'), 5000);
    },
  },
  {
    file: 'tasks-flow.jsonl',
    title: "the tasks extension's Example Message Flow: tools/call → CreateTaskResult, tasks/get polling (working, input_required twice), tasks/update, working, completed",
    transport: 'stdio',
    sources: ['tasks.md#1', ...Array.from({ length: 14 }, (_, i) => `tasks.md#${i + 8}`), 'CallToolRequest/call-tool-request'],
    spec: "ext-tasks, Example Message Flow, ids 2–8 as the page gives them, polled every pollIntervalMs (5000 ms): \"Clients SHOULD respect the pollIntervalMs\"; tasks/get and tasks/update answer with resultType \"complete\". A correct session.",
    build(s) {
      const steps: [string, string][] = [
        ['tasks.md#8', 'To invoke this tool'],
        ['tasks.md#9', 'wants to create a task'],
        ['tasks.md#10', 'begins polling'],
        ['tasks.md#11', '"working"'],
        ['tasks.md#12', 'inputRequests'],
        ['tasks.md#13', 'inputRequests'],
        ['tasks.md#14', 'For thoroughness'],
        ['tasks.md#15', 'For thoroughness'],
        ['tasks.md#16', 'tasks/update'],
        ['tasks.md#17', 'acknowledges'],
        ['tasks.md#18', 'Asynchronously'],
        ['tasks.md#19', 'Asynchronously'],
        ['tasks.md#20', 'Eventually'],
        ['tasks.md#21', 'Eventually'],
      ];
      let poll = 0;
      for (const [key, expect] of steps) {
        const m = taskBlock(key, expect);
        if ('method' in m) {
          withMeta(m, TASKS_META());
          s.c2s(m, `${key} (Example Message Flow); _meta completed with the schema's request _meta and tasks.md#1's per-request capabilities`, poll || 100);
        } else {
          s.s2c(m, `${key} (Example Message Flow)`, 50);
          const r = resultOf(m);
          poll = typeof r.pollIntervalMs === 'number' ? r.pollIntervalMs : poll;
        }
      }
    },
  },
  {
    file: 'tasks-cancel.jsonl',
    title: 'a task cancelled with tasks/cancel, acknowledged, and no polling after it',
    transport: 'stdio',
    sources: ['tasks.md#1', 'tasks.md#8', 'tasks.md#9', 'tasks.md#10', 'tasks.md#11', 'tasks.md#17', 'CallToolRequest/call-tool-request'],
    spec: 'ext-tasks, Task Cancellation: the client sends tasks/cancel (the page gives no JSON for it: it is the page\'s tasks/get request with method "tasks/cancel", the same params), "the server MUST acknowledge the request with an empty result" (resultType "complete": the page\'s tasks/update acknowledgement), and "The client does not need to poll tasks/get again". A correct session.',
    build(s) {
      const call = withMeta(taskBlock('tasks.md#8', 'To invoke this tool'), TASKS_META());
      s.c2s(call, 'tasks.md#8 (Example Message Flow); _meta completed');
      const created = taskBlock('tasks.md#9', 'wants to create a task');
      s.s2c(created, 'tasks.md#9 (CreateTaskResult)', 50);
      const interval = resultOf(created).pollIntervalMs as number;
      const get = withMeta(taskBlock('tasks.md#10', 'begins polling'), TASKS_META());
      s.c2s(get, 'tasks.md#10 (tasks/get); _meta completed', interval);
      s.s2c(taskBlock('tasks.md#11', '"working"'), 'tasks.md#11 (working)', 50);
      const cancel = withId(withMeta(taskBlock('tasks.md#10', 'begins polling'), TASKS_META()), (get.id as number) + 1);
      cancel.method = 'tasks/cancel';
      s.c2s(cancel, "tasks.md#10 with method → tasks/cancel (CancelTaskRequest has the same params as GetTaskRequest) and the next id; _meta completed", 1000);
      s.s2c(withId(taskBlock('tasks.md#17', 'acknowledges'), cancel.id as number), 'tasks.md#17 (the empty acknowledgement, resultType "complete": CancelTaskResult = Result, like UpdateTaskResult); id → the cancel\'s', 50);
    },
  },
  {
    file: 'tasks-cancel-notification.jsonl',
    title: 'a task "cancelled" with notifications/cancelled for the tools/call that created it',
    transport: 'stdio',
    sources: ['tasks.md#1', 'tasks.md#8', 'tasks.md#9', 'CancelledNotification/user-requested-cancellation', 'CallToolRequest/call-tool-request'],
    spec: 'ext-tasks, Task Cancellation: "The notifications/cancelled notification MUST NOT be used for task cancellation." The request it names was answered (with the task handle) seconds before.',
    build(s) {
      const call = withMeta(taskBlock('tasks.md#8', 'To invoke this tool'), TASKS_META());
      s.c2s(call, 'tasks.md#8 (Example Message Flow); _meta completed');
      s.s2c(taskBlock('tasks.md#9', 'wants to create a task'), 'tasks.md#9 (CreateTaskResult)', 50);
      const cancel = ex('CancelledNotification/user-requested-cancellation');
      (cancel.params as J).requestId = call.id;
      s.c2s(cancel, `${S('CancelledNotification/user-requested-cancellation')}; requestId → ${JSON.stringify(call.id)}, the tools/call that created the task`, 3000);
    },
  },
  {
    file: 'tasks-failed.jsonl',
    title: "tasks/get of a task that failed with a JSON-RPC error (the extension's example, resultType \"task\")",
    transport: 'stdio',
    sources: ['tasks.md#1', 'tasks.md#10', 'tasks.md#24', 'CallToolRequest/call-tool-request'],
    spec: 'ext-tasks, Task Polling: "The resultType field MUST be set to "complete" on this object as it is the standard result shape for the tasks/get request"; the Task Execution Errors example answers tasks/get with resultType "task" — the example itself breaks that MUST (the vendored extension schema enforces it). Its taskId (…789f820fe840) is not the flow\'s (…789f320fe840): the tasks/get asks for the example\'s own.',
    build(s) {
      const failed = taskBlock('tasks.md#24', 'JSON-RPC execution error');
      const get = withId(withMeta(taskBlock('tasks.md#10', 'begins polling'), TASKS_META()), failed.id as number);
      params(get).taskId = resultOf(failed).taskId;
      s.c2s(get, `tasks.md#10 (tasks/get); id and taskId → tasks.md#24's; _meta completed`);
      s.s2c(failed, 'tasks.md#24 (Example: Task with JSON-RPC execution error)', 50);
    },
  },
  {
    file: 'tasks-completed-tool-error.jsonl',
    title: "tasks/get of a task completed with a tool error, isError: true (the extension's example, resultType \"task\")",
    transport: 'stdio',
    sources: ['tasks.md#1', 'tasks.md#10', 'tasks.md#25', 'CallToolRequest/call-tool-request'],
    spec: 'ext-tasks: a tool result with isError: true is status "completed" with the result inlined (right), but the example answers tasks/get with resultType "task" where it "MUST be set to "complete"" — the example breaks that MUST.',
    build(s) {
      const done = taskBlock('tasks.md#25', 'isError: true');
      const get = withId(withMeta(taskBlock('tasks.md#10', 'begins polling'), TASKS_META()), done.id as number);
      params(get).taskId = resultOf(done).taskId;
      s.c2s(get, `tasks.md#10 (tasks/get); id and taskId → tasks.md#25's; _meta completed`);
      s.s2c(done, 'tasks.md#25 (Example: Tool call completed with tool error)', 50);
    },
  },
  {
    file: 'tasks-errors.jsonl',
    title: 'the tasks extension\'s protocol errors: -32021 for a client without the extension, -32602 for a task not found and an expired one',
    transport: 'stdio',
    sources: ['tasks.md#1', 'tasks.md#3', 'tasks.md#4', 'tasks.md#10', 'tasks.md#22', 'tasks.md#23', 'CallToolRequest/call-tool-request'],
    spec: 'ext-tasks: a server that can only serve the request as a task "MUST return an error with the code -32021" to a client that did not declare the extension (the Task Creation request declares nothing); "Invalid or nonexistent taskId: -32602 … Servers MUST return this error for tasks/get" (not found, expired). A correct session.',
    build(s) {
      const missing = taskBlock('tasks.md#3', 'does not declare this extension');
      const call = withId(withMeta(taskBlock('tasks.md#4', 'Example Request (CallToolRequest)'), REQUEST_META()), missing.id as number);
      s.c2s(call, "tasks.md#4 (Task Creation request); _meta completed with the schema's request _meta (clientCapabilities {}: no extension); id → tasks.md#3's");
      s.s2c(missing, 'tasks.md#3 (-32021 naming the extension)', 50);
      for (const [key, expect] of [
        ['tasks.md#22', 'Task not found'],
        ['tasks.md#23', 'Task expired'],
      ] as const) {
        const err = taskBlock(key, expect);
        const get = withId(withMeta(taskBlock('tasks.md#10', 'begins polling'), TASKS_META()), err.id as number);
        s.c2s(get, `tasks.md#10 (tasks/get); id → ${key}'s; _meta completed`, 1000);
        s.s2c(err, `${key} (Example: ${expect})`, 50);
      }
    },
  },
];

/** The README of the fixtures folder: each file, what the spec says of it, its sources. */
function readme(): string {
  const out = [
    '# Golden 2026-07-28 transcripts from the specification\'s own examples',
    '',
    'Written by `npm run spec-examples` (scripts/spec-examples.ts) from the vendored example data:',
    `\`src/wire/mcp-schema/examples/2026-07-28.json\` (modelcontextprotocol/modelcontextprotocol ${spec.source.commit.slice(0, 7)}: the schema's`,
    `examples and the spec pages' JSON blocks) and \`src/wire/ext-tasks/examples.json\` (modelcontextprotocol/ext-tasks ${tasks.source.commit.slice(0, 7)}:`,
    'the tasks extension page). Capture envelope JSONL; every frame\'s `text` names the example it is and',
    'what was changed (ids so requests and answers pair; the `_meta` a page abbreviates; a value one',
    'example names for another). Do not edit: regenerate. `specExamples.test.ts` (beside this folder)',
    'replays each through `check` and asserts the findings the spec text implies.',
    '',
  ];
  for (const f of SPEC_FIXTURES) {
    out.push(`## ${f.file}`, '', `${f.title} (${f.transport}).`, '', f.spec, '', `Sources: ${f.sources.map((x) => `\`${x}\``).join(', ')}.`, '');
  }
  return out.join('\n');
}

/** The files the script writes: name under SPEC_FIXTURES_DIR → text. */
export function specExampleFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of SPEC_FIXTURES) {
    const s = new Session(f.transport, f.title);
    f.build(s);
    files.set(f.file, s.text());
  }
  files.set('README.md', readme());
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.join(root, SPEC_FIXTURES_DIR);
  const files = specExampleFiles();
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir)) if (!files.has(old)) rmSync(path.join(dir, old));
  for (const [file, text] of files) {
    writeFileSync(path.join(dir, file), text);
    console.log(`wrote ${SPEC_FIXTURES_DIR}/${file}`);
  }
}
