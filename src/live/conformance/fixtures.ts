/**
 * The fixture surface the official MCP conformance suite
 * (`@modelcontextprotocol/conformance`, pinned 0.2.0-alpha.12) calls when it judges a server:
 * the `test_*` tools, the `test://` resources and template, the `test_*` prompts, completion,
 * logging and subscriptions. It is a tool set of its own (`serve --tools conformance`), kept apart
 * from the lab's fault tools so a judge's fixtures never mix with a lesson's misbehaviour.
 *
 * Every name, argument and payload shape below is what a scenario's own description asks for
 * (the suite's `server` scenarios, e.g. "Implement a tool named `test_elicitation_sep1034_defaults`
 * (no arguments) that requests `elicitation/create` … `age` (integer): default 30"); the texts are
 * this project's. The checks are structural (non-empty content of the right type, at least three
 * progress notifications, a `-32602` on tampered state…), so nothing here depends on exact prose.
 *
 * Both wire eras are served from the same registration:
 * - 2025-11-25 (stateful session): sampling and elicitation go back to the client as real
 *   server→client requests on the call's stream (`ctx.mcpReq.send`).
 * - 2026-07-28 (stateless, per-request `_meta`): the `test_input_required_result_*` tools answer
 *   with an `InputRequiredResult` (SEP-2322, multi-round-trip) and finish when the retried call
 *   carries the responses; `requestState` is HMAC-sealed with a per-process key and verified on
 *   re-entry (spec basic/patterns/mrtr, server requirements 4–5: state that steers behaviour MUST be
 *   integrity-protected and a tampered one rejected with `-32602`).
 *
 * No process, socket or timer outlives a call: the host (the test's `testHost.ts`, later
 * `mcp-lab serve --tools conformance`) owns transports.
 */
import { randomUUID } from 'node:crypto';
import {
  acceptedContent,
  CLIENT_CAPABILITIES_META_KEY,
  completable,
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  GetPromptResult,
  InputRequests,
  InputRequiredResult,
  ReadResourceResult,
  ServerCapabilities,
  ServerContext,
} from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { LiveFaultName } from '../../sim/faultVocabulary';

/**
 * The fixtures {@link registerConformanceFixtures} can turn wrong on purpose, to show the judge
 * can fail:
 * - `test_simple_text` answers with an empty `content` array (scenario `tools-call-simple-text`
 *   requires at least one text item).
 * - `test_tool_with_progress` sends one progress notification instead of three (scenario
 *   `tools-call-with-progress` requires at least three, increasing).
 */
export type BreakableFixture = 'test_simple_text' | 'test_tool_with_progress';

/** The breakable fixtures, for `--help` texts and tests. */
export const BREAKABLE_FIXTURES: readonly BreakableFixture[] = ['test_simple_text', 'test_tool_with_progress'];

/**
 * Publishes list-changed events on open 2026-07-28 `subscriptions/listen` streams (SEP-2575).
 * The host passes `createMcpHandler(...).notify`; without it the trigger tools fall back to the
 * session's own `notifications/*\/list_changed` (2025-era sessions).
 */
export interface ListChangedNotifier {
  /** Publish `notifications/tools/list_changed`. */
  toolsChanged(): void;
  /** Publish `notifications/prompts/list_changed`. */
  promptsChanged(): void;
}

/** Options of {@link registerConformanceFixtures}. */
export interface ConformanceFixtureOptions {
  /** Turn one fixture wrong on purpose (see {@link BreakableFixture}); default: none. */
  break?: BreakableFixture;
  /** Where the `test_trigger_*_change` tools publish; see {@link ListChangedNotifier}. */
  notifier?: ListChangedNotifier;
  /**
   * The live faults `serve --fault` applies (`src/sim/faultVocabulary.ts`). The fixtures act on
   * `no-progress`: `test_tool_with_progress` stays silent for its 100 ms, then answers (so the
   * suite's `tools-call-with-progress` fails, the other scenarios do not). Default: none.
   */
  faults?: readonly LiveFaultName[];
  /** Called when a fault acts on a fixture call (serve records it as a fault mark): request id, one line. */
  onFault?: (fault: LiveFaultName, requestId: string | number, text: string) => void;
}

/** Server name and version the conformance hosts announce (`serverInfo`). */
export const CONFORMANCE_SERVER_INFO = { name: 'mcp-lab-conformance', version: '1.0.0' } as const;

/**
 * Capabilities the fixtures need: tools/prompts/resources with list-changed, resource
 * subscriptions (2025-11-25 `resources/subscribe`), completions, and logging (deprecated from
 * 2026-07-28 by SEP-2577 but still what the 2025-11-25 `logging/setLevel` scenario negotiates).
 */
export const CONFORMANCE_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

/** 1×1 PNG (one red pixel), base64: the image payload of tools, resources and prompts. */
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/**
 * A 44-byte WAV header with one 16-bit mono sample at 8 kHz, base64: the audio payload. Built
 * here rather than pasted, so its fields can be read.
 */
const WAV_TINY = (() => {
  const b = Buffer.alloc(46);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(38, 4); // file size − 8
  b.write('WAVE', 8, 'ascii');
  b.write('fmt ', 12, 'ascii');
  b.writeUInt32LE(16, 16); // PCM chunk size
  b.writeUInt16LE(1, 20); // PCM
  b.writeUInt16LE(1, 22); // mono
  b.writeUInt32LE(8000, 24); // sample rate
  b.writeUInt32LE(16000, 28); // byte rate
  b.writeUInt16LE(2, 32); // block align
  b.writeUInt16LE(16, 34); // bits per sample
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(2, 40); // one sample
  b.writeInt16LE(0, 44);
  return b.toString('base64');
})();

/** Words `completion/complete` suggests for `test_prompt_with_arguments`'s arguments. */
const COMPLETION_WORDS = ['park', 'parse', 'party', 'test', 'testing', 'text', 'timeout', 'token'];

/**
 * Per-process HMAC key for `requestState`. The 2026-07-28 path builds a fresh server for every
 * request, so only the sealed state itself carries a multi-round flow; the key must outlive
 * those instances, hence module scope.
 */
const stateCodec = createRequestStateCodec<Record<string, unknown>>({
  key: globalThis.crypto.getRandomValues(new Uint8Array(32)),
});

/**
 * Options to merge into `new McpServer(info, options)` for a server carrying the fixtures: their
 * capabilities and the seam-level `requestState` check (the SDK verifies sealed state before a
 * handler runs and answers a JSON-RPC `-32602` when it fails). REQUIRED for the
 * `input-required-result-tampered-state` scenario: without it the fixtures still refuse tampered
 * state, but only as an `isError` tool result (McpServer turns a handler's throw into one), which
 * the suite counts as accepting it (shown in `conformance.test.ts`).
 */
export function conformanceServerOptions(): {
  capabilities: ServerCapabilities;
  requestState: { verify: (state: string, ctx: ServerContext) => Promise<Record<string, unknown>> };
} {
  return { capabilities: CONFORMANCE_CAPABILITIES, requestState: { verify: stateCodec.verify } };
}

/**
 * The verified `requestState` payload of this round, or `undefined` when it carried none.
 * Accepts both host set-ups: with the seam hook the SDK hands over the decoded payload; without
 * it the raw wire string arrives and is verified here (fail-closed: never acted on unverified).
 * @throws ProtocolError `-32602` when the state fails verification (bad MAC, expired, malformed);
 *   from a tool handler McpServer delivers it as an `isError` result, not a JSON-RPC error.
 */
async function verifiedState(ctx: ServerContext): Promise<Record<string, unknown> | undefined> {
  const state = ctx.mcpReq.requestState<unknown>();
  if (state === undefined) return undefined;
  if (typeof state !== 'string') return state as Record<string, unknown>;
  try {
    return await stateCodec.verify(state, ctx);
  } catch {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState');
  }
}

/** The JSON Schema type `fromJsonSchema` takes. */
type JsonSchema = Parameters<typeof fromJsonSchema>[0];

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** An elicitation schema with one required string property named `field`. */
function oneField(field: string) {
  return { type: 'object' as const, properties: { [field]: { type: 'string' as const } }, required: [field] };
}

/** An elicitation schema with one required boolean property named `field`. */
function oneFlag(field: string) {
  return { type: 'object' as const, properties: { [field]: { type: 'boolean' as const } }, required: [field] };
}

/**
 * Registers the conformance fixtures on `server` (SDK v2 `McpServer`), and its capabilities
 * ({@link CONFORMANCE_CAPABILITIES}). Call once per server instance, before `connect`. The
 * 2026-07-28 host builds one instance per request, so registration must stay cheap: it is.
 * @param options.break turn one fixture wrong on purpose (tests of the judge).
 * @param options.notifier where the list-changed trigger tools publish.
 * @throws Error from the SDK if a fixture name is already registered on `server`.
 */
export function registerConformanceFixtures(server: McpServer, options: ConformanceFixtureOptions = {}): void {
  server.server.registerCapabilities(CONFORMANCE_CAPABILITIES);
  registerContentTools(server, options);
  registerSessionTools(server, options);
  registerElicitationTools(server);
  registerStatelessTools(server, options);
  registerMultiRoundTools(server);
  registerResources(server);
  registerPrompts(server);
}

/**
 * A server carrying only the fixtures, built the way the suite needs: `new McpServer` with
 * {@link conformanceServerOptions} (the seam-level `requestState` check), then
 * {@link registerConformanceFixtures}. The factory for `serve --tools conformance`: pass the
 * 2026-07-28 handler's `notify` as `options.notifier`, or the `server-stateless` list-changed
 * checks end in WARNINGs (which the baseline counts as failures).
 */
export function createConformanceServer(options: ConformanceFixtureOptions = {}): McpServer {
  const server = new McpServer(CONFORMANCE_SERVER_INFO, conformanceServerOptions());
  registerConformanceFixtures(server, options);
  return server;
}

/** Content tools: text, image, audio, embedded resource, mixed, error; scenarios `tools-call-*`. */
function registerContentTools(server: McpServer, options: ConformanceFixtureOptions): void {
  server.registerTool('test_simple_text', { description: 'Answers with one text item.' }, async () =>
    options.break === 'test_simple_text' ? { content: [] } : text('A plain text result from the mcp-lab fixtures.'),
  );
  server.registerTool('test_image_content', { description: 'Answers with one PNG image item.' }, async () => ({
    content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'Answers with one WAV audio item.' }, async () => ({
    content: [{ type: 'audio', data: WAV_TINY, mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'Answers with an embedded text resource.' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'Embedded by mcp-lab.' } },
    ],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Answers with text, image and an embedded resource.' }, async () => ({
    content: [
      { type: 'text', text: 'Three kinds of content follow this line.' },
      { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ kind: 'mixed', n: 3 }) },
      },
    ],
  }));
  server.registerTool('test_error_handling', { description: 'Always fails: the failure is a tool result with isError.' }, async () => {
    throw new Error('test_error_handling fails on purpose');
  });
  // SEP-2243: an argument mirrored into an `Mcp-Param-Region` header. The SDK checks the header
  // against the body (and decodes `=?base64?…?=` values); the fixture only declares the mirror.
  server.registerTool(
    'test_x_mcp_header',
    {
      description: 'Echoes `region`, an argument the client also sends as the Mcp-Param-Region header (SEP-2243).',
      // `x-mcp-header` is an MCP keyword the SDK's JSON Schema type does not list: hence the cast.
      inputSchema: fromJsonSchema<{ region?: string; level?: number }>({
        type: 'object',
        properties: {
          region: { type: 'string', description: 'also sent as Mcp-Param-Region', 'x-mcp-header': 'Region' } as JsonSchema,
          level: { type: 'integer', description: 'body only' },
        },
      }),
    },
    async (args) => text(`region=${args.region ?? '(none)'}`),
  );
  server.registerTool(
    'json_schema_2020_12_tool',
    {
      description: 'Advertises a JSON Schema 2020-12 input schema ($defs, $ref, allOf/anyOf, if/then/else) verbatim.',
      inputSchema: fromJsonSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      }),
    },
    async (args) => text(`arguments: ${JSON.stringify(args)}`),
  );
}

/**
 * Tools that talk during a call: logging and progress notifications on the call's stream
 * (`tools-call-with-logging`, `tools-call-with-progress`), and 2025-era sampling and elicitation
 * sent back to the client (`tools-call-sampling`, `tools-call-elicitation`).
 */
function registerSessionTools(server: McpServer, options: ConformanceFixtureOptions): void {
  server.registerTool(
    'test_tool_with_logging',
    { description: 'Sends three info log messages, 50 ms apart, then answers.', inputSchema: z.object({}) },
    async (_args, ctx) => {
      for (const [i, step] of ['started', 'working', 'finished'].entries()) {
        if (i > 0) await sleep(50);
        await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', logger: 'mcp-lab', data: `test_tool_with_logging ${step}` } });
      }
      return text('logged three messages');
    },
  );
  server.registerTool(
    'test_tool_with_progress',
    { description: 'Reports progress 0, 50, 100 of 100 (50 ms apart) when the call carries a progress token.', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      // Progress only for a caller that asked (a progress token); never otherwise.
      if (token !== undefined && options.faults?.includes('no-progress')) {
        options.onFault?.('no-progress', ctx.mcpReq.id, 'test_tool_with_progress: silent for 100 ms (no progress), then the answer');
        await sleep(100);
      } else if (token !== undefined) {
        const steps = options.break === 'test_tool_with_progress' ? [0] : [0, 50, 100];
        for (const [i, progress] of steps.entries()) {
          if (i > 0) await sleep(50);
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total: 100, message: `step ${i + 1} of ${steps.length}` },
          });
        }
      }
      return text(`progress token: ${String(token ?? 'none')}`);
    },
  );
  server.registerTool(
    'test_reconnection',
    {
      description: 'Closes its own SSE stream mid-call (when the host keeps an event store), then answers; a resuming client gets the result by reconnecting with Last-Event-ID (SEP-1699).',
      inputSchema: z.object({}),
    },
    async (_args, ctx) => {
      ctx.http?.closeSSE?.();
      await sleep(100);
      return text('answered after the stream was closed');
    },
  );
  server.registerTool(
    'test_sampling',
    { description: 'Asks the client for an LLM completion of `prompt` (sampling/createMessage).', inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      try {
        const reply = (await ctx.mcpReq.send({
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
        })) as { content?: { text?: unknown } };
        return text(`model said: ${typeof reply.content?.text === 'string' ? reply.content.text : JSON.stringify(reply)}`);
      } catch (error) {
        return { ...text(`sampling failed: ${error instanceof Error ? error.message : String(error)}`), isError: true };
      }
    },
  );
  server.registerTool(
    'test_elicitation',
    { description: 'Asks the user, through the client, for one string (elicitation/create).', inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) =>
      elicitAndReport(ctx, { message, requestedSchema: { ...oneField('response'), properties: { response: { type: 'string', description: 'Your answer' } } } }),
  );
}

/** Sends one `elicitation/create` and answers with what came back. */
async function elicitAndReport(ctx: ServerContext, params: ElicitRequestFormParams): Promise<CallToolResult> {
  try {
    const reply = (await ctx.mcpReq.send({ method: 'elicitation/create', params })) as { action?: string; content?: unknown };
    return text(`elicitation: action=${String(reply.action)} content=${JSON.stringify(reply.content ?? {})}`);
  } catch (error) {
    return { ...text(`elicitation failed: ${error instanceof Error ? error.message : String(error)}`), isError: true };
  }
}

/** Elicitation schema fixtures: SEP-1034 defaults and SEP-1330 enum forms (2025-11-25). */
function registerElicitationTools(server: McpServer): void {
  server.registerTool(
    'test_elicitation_sep1034_defaults',
    { description: 'Elicits a form whose every primitive field has a default (SEP-1034).', inputSchema: z.object({}) },
    async (_args, ctx) =>
      elicitAndReport(ctx, {
        message: 'Check the prefilled values',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Name', default: 'John Doe' },
            age: { type: 'integer', description: 'Age', default: 30 },
            score: { type: 'number', description: 'Score', default: 95.5 },
            status: { type: 'string', description: 'Status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verified', default: true },
          },
          required: [],
        },
      }),
  );
  const titled = (prefix: string, titles: string[]) => titles.map((title, i) => ({ const: `${prefix}${i + 1}`, title }));
  server.registerTool(
    'test_elicitation_sep1330_enums',
    { description: 'Elicits a form with the five enum forms of SEP-1330.', inputSchema: z.object({}) },
    async (_args, ctx) =>
      elicitAndReport(ctx, {
        message: 'Pick from each list',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'One option', enum: ['option1', 'option2', 'option3'] },
            titledSingle: { type: 'string', description: 'One titled option', oneOf: titled('value', ['First', 'Second', 'Third']) },
            legacyEnum: { type: 'string', description: 'One option (enumNames form)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['One', 'Two', 'Three'] },
            untitledMulti: { type: 'array', description: 'Some options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: { type: 'array', description: 'Some titled options', minItems: 1, maxItems: 3, items: { anyOf: titled('value', ['Alpha', 'Beta', 'Gamma']) } },
          },
          required: [],
        },
      }),
  );
}

/**
 * Fixtures of scenario `server-stateless` (2026-07-28, SEP-2575): a tool that needs a client
 * capability the caller did not declare (`-32021`), a plain call whose stream must carry no
 * top-level request, a tool that logs (only delivered when the request set a log level), and the
 * list-changed triggers for `subscriptions/listen`.
 */
function registerStatelessTools(server: McpServer, options: ConformanceFixtureOptions): void {
  server.registerTool(
    'test_missing_capability',
    { description: 'Needs the client `sampling` capability: asks for one completion in-band.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      if (ctx.mcpReq.inputResponses?.['completion'] !== undefined) return text('sampling answered');
      return inputRequired({
        inputRequests: {
          completion: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say ok.' } }], maxTokens: 8 }),
        },
      });
    },
  );
  server.registerTool(
    'test_streaming_elicitation',
    { description: 'A plain result: its response stream carries no request of its own.', inputSchema: z.object({}) },
    async () => text('result only'),
  );
  server.registerTool(
    'test_logging_tool',
    { description: 'Logs one info message through the request-scoped log (sent only if the request set a log level).', inputSchema: z.object({}) },
    async (_args, ctx) => {
      await ctx.mcpReq.log('info', 'test_logging_tool ran');
      return text('logged (if asked to)');
    },
  );
  server.registerTool(
    'test_trigger_tool_change',
    { description: 'Publishes notifications/tools/list_changed.', inputSchema: z.object({}) },
    async () => {
      if (options.notifier) options.notifier.toolsChanged();
      else server.sendToolListChanged();
      return text('tools list changed');
    },
  );
  server.registerTool(
    'test_trigger_prompt_change',
    { description: 'Publishes notifications/prompts/list_changed.', inputSchema: z.object({}) },
    async () => {
      if (options.notifier) options.notifier.promptsChanged();
      else server.sendPromptListChanged();
      return text('prompts list changed');
    },
  );
}

/**
 * Multi-round-trip fixtures (SEP-2322, scenarios `input-required-result-*`, 2026-07-28): each
 * answers `InputRequiredResult` until the retried call carries the responses it asked for.
 */
function registerMultiRoundTools(server: McpServer): void {
  // Keys and messages are the ones each scenario's description gives for round 1.
  const askName = () => inputRequired.elicit({ message: 'What is your name?', requestedSchema: oneField('name') });
  const askConfirm = () => inputRequired.elicit({ message: 'Please confirm', requestedSchema: oneFlag('ok') });
  const askGreeting = () => inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 });

  server.registerTool(
    'test_input_required_result_elicitation',
    { description: 'Asks for the caller’s name in-band (elicitation), then greets.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const name = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'user_name')?.name;
      if (typeof name !== 'string') return inputRequired({ inputRequests: { user_name: askName() } });
      return text(`Hello, ${name}!`);
    },
  );
  server.registerTool(
    'test_input_required_result_sampling',
    { description: 'Asks for an LLM completion in-band (sampling), then reports it.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const reply = ctx.mcpReq.inputResponses?.['capital_question'] as { content?: { text?: unknown } } | undefined;
      if (reply === undefined) {
        return inputRequired({
          inputRequests: {
            capital_question: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }),
          },
        });
      }
      return text(`model said: ${typeof reply.content?.text === 'string' ? reply.content.text : JSON.stringify(reply)}`);
    },
  );
  server.registerTool(
    'test_input_required_result_list_roots',
    { description: 'Asks for the client’s roots in-band (roots/list), then counts them.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const roots = (ctx.mcpReq.inputResponses?.['client_roots'] as { roots?: unknown } | undefined)?.roots;
      if (!Array.isArray(roots)) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      return text(`${roots.length} root(s)`);
    },
  );
  server.registerTool(
    'test_input_required_result_request_state',
    { description: 'Round-trips sealed requestState with one confirmation.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = await verifiedState(ctx);
      const ok = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      if (state?.tool === 'request_state' && ok !== undefined) return text('state-ok: requestState verified, confirmation received');
      return inputRequired({ inputRequests: { confirm: askConfirm() }, requestState: await stateCodec.mint({ tool: 'request_state', nonce: randomUUID() }) });
    },
  );
  server.registerTool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks for elicitation, sampling and roots in one round.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      await verifiedState(ctx);
      const responses = ctx.mcpReq.inputResponses;
      const name = acceptedContent<{ name: string }>(responses, 'user_name')?.name;
      const greeting = (responses?.['greeting'] as { content?: { text?: unknown } } | undefined)?.content?.text;
      const roots = (responses?.['client_roots'] as { roots?: unknown } | undefined)?.roots;
      if (typeof name === 'string' && typeof greeting === 'string' && Array.isArray(roots)) {
        return text(`${greeting} ${name} (${roots.length} root(s))`);
      }
      return inputRequired({
        inputRequests: { user_name: askName(), greeting: askGreeting(), client_roots: inputRequired.listRoots() },
        requestState: await stateCodec.mint({ tool: 'multiple_inputs', nonce: randomUUID() }),
      });
    },
  );
  server.registerTool(
    'test_input_required_result_multi_round',
    { description: 'Two elicitation rounds; the round number lives in sealed requestState.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = await verifiedState(ctx);
      const round = state?.tool === 'multi_round' && typeof state.round === 'number' ? state.round : 0;
      if (round === 0) {
        return inputRequired({
          inputRequests: { step1: inputRequired.elicit({ message: 'Step 1: What is your name?', requestedSchema: oneField('name') }) },
          requestState: await stateCodec.mint({ tool: 'multi_round', round: 1, nonce: randomUUID() }),
        });
      }
      if (round === 1) {
        const name = acceptedContent<{ name: string }>(ctx.mcpReq.inputResponses, 'step1')?.name ?? 'someone';
        return inputRequired({
          inputRequests: { step2: inputRequired.elicit({ message: 'Step 2: What is your favorite color?', requestedSchema: oneField('color') }) },
          requestState: await stateCodec.mint({ tool: 'multi_round', round: 2, name, nonce: randomUUID() }),
        });
      }
      const color = acceptedContent<{ color: string }>(ctx.mcpReq.inputResponses, 'step2')?.color ?? 'no colour';
      return text(`done after two rounds: ${String(state?.name)} likes ${color}`);
    },
  );
  server.registerTool(
    'test_input_required_result_tampered_state',
    { description: 'Rejects a retry whose requestState fails its HMAC (-32602).', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = await verifiedState(ctx);
      if (state !== undefined && acceptedContent(ctx.mcpReq.inputResponses, 'confirm') !== undefined) return text('state intact');
      return inputRequired({ inputRequests: { confirm: askConfirm() }, requestState: await stateCodec.mint({ tool: 'tampered_state', nonce: randomUUID() }) });
    },
  );
  server.registerTool(
    'test_input_required_result_capabilities',
    { description: 'Asks only for the kinds of input the caller declared it can give.', inputSchema: z.object({}) },
    async (_args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      if (ctx.mcpReq.inputResponses !== undefined) return text('inputs received');
      const declared = ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as Record<string, unknown>;
      const wanted: InputRequests = {};
      if (declared.elicitation !== undefined) wanted.user_name = askName();
      if (declared.sampling !== undefined) wanted.greeting = askGreeting();
      if (declared.roots !== undefined) wanted.client_roots = inputRequired.listRoots();
      if (Object.keys(wanted).length === 0) return text('the caller declared no capability for in-band input');
      return inputRequired({ inputRequests: wanted });
    },
  );
}

/**
 * Resources: a static text, a static binary, a template `test://template/{id}/data`, a resource
 * to subscribe to (`resources-*` scenarios), and the 2025-era subscribe/unsubscribe handlers.
 * (`logging/setLevel` is the SDK's own: declaring the `logging` capability installs it, keeping
 * the level per session.)
 */
function registerResources(server: McpServer): void {
  const fixed = (name: string, uri: string, mimeType: string, description: string, body: { text: string } | { blob: string }) =>
    server.registerResource(name, uri, { title: name, description, mimeType }, async (): Promise<ReadResourceResult> => ({
      contents: [{ uri, mimeType, ...body }],
    }));
  fixed('static-text', 'test://static-text', 'text/plain', 'A fixed text resource.', { text: 'Fixed text from the mcp-lab fixtures.' });
  fixed('static-binary', 'test://static-binary', 'image/png', 'A fixed binary resource (a 1×1 PNG).', { blob: PNG_1X1 });
  fixed('watched-resource', 'test://watched-resource', 'text/plain', 'A resource to subscribe to.', { text: 'Watched text.' });
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    { title: 'template', description: 'JSON data for any id.', mimeType: 'application/json' },
    async (uri, variables): Promise<ReadResourceResult> => ({
      contents: [{ uri: uri.toString(), mimeType: 'application/json', text: JSON.stringify({ id: variables.id, templateTest: true }) }],
    }),
  );
  // Subscriptions are acknowledged and remembered per server instance; the fixed resources
  // never change, so no update is ever due.
  const subscribed = new Set<string>();
  server.server.setRequestHandler('resources/subscribe', async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
}

/** Prompts of the `prompts-*` and `completion-complete` scenarios, and the MRTR prompt. */
function registerPrompts(server: McpServer): void {
  const user = (t: string) => ({ role: 'user' as const, content: { type: 'text' as const, text: t } });
  const complete = (value: string) => COMPLETION_WORDS.filter((w) => w.startsWith(value));
  server.registerPrompt('test_simple_prompt', { title: 'Simple prompt', description: 'No arguments.' }, async (): Promise<GetPromptResult> => ({
    messages: [user('A prompt with no arguments.')],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      title: 'Prompt with arguments',
      description: 'Two required arguments, both completable.',
      argsSchema: z.object({ arg1: completable(z.string().describe('First argument'), complete), arg2: completable(z.string().describe('Second argument'), complete) }),
    },
    async ({ arg1, arg2 }): Promise<GetPromptResult> => ({ messages: [user(`arg1=${arg1} arg2=${arg2}`)] }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    { title: 'Prompt with a resource', description: 'Embeds the resource named by resourceUri.', argsSchema: z.object({ resourceUri: z.string().describe('URI to embed') }) },
    async ({ resourceUri }): Promise<GetPromptResult> => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded prompt resource.' } } },
        user('Read the resource above.'),
      ],
    }),
  );
  server.registerPrompt('test_prompt_with_image', { title: 'Prompt with an image', description: 'Carries a PNG.' }, async (): Promise<GetPromptResult> => ({
    messages: [{ role: 'user', content: { type: 'image', data: PNG_1X1, mimeType: 'image/png' } }, user('Describe the image above.')],
  }));
  server.registerPrompt(
    'test_input_required_result_prompt',
    { title: 'Prompt needing input', description: 'Asks for context in-band (MRTR) before rendering.' },
    async (ctxArg: unknown): Promise<GetPromptResult | InputRequiredResult> => {
      const ctx = ctxArg as ServerContext;
      const context = acceptedContent<{ context: string }>(ctx.mcpReq.inputResponses, 'user_context')?.context;
      if (typeof context !== 'string') {
        return inputRequired({ inputRequests: { user_context: inputRequired.elicit({ message: 'Which context?', requestedSchema: oneField('context') }) } });
      }
      return { messages: [user(`Context: ${context}`)] };
    },
  );
}
