// Writes the Inspector 2.x protocol-export fixture by running the Inspector's own code
// (@modelcontextprotocol/inspector 2.12.0, dev dependency): its TypedEventTarget, its
// MessageLogState (which folds each response into its request entry: `response`, `duration`) and
// its InspectorClient.createMessageTrackingCallbacks (which builds each entry: uuid id, Date
// timestamp, direction, origin, message) are sliced out of the package's bundled build as they
// are, and the export is what its "Export protocol" button writes: JSON.stringify(messages, null, 2).
// The clock is a virtual one so the times are set. Usage: node scripts/inspector-fixture.mjs OUT.json
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const pkg = path.dirname(require.resolve('@modelcontextprotocol/inspector/package.json'));
const build = readFileSync(path.join(pkg, 'clients/mcpdo/build/chunk-LBQDT5VV.js'), 'utf8');
const section = (marker) => {
  const start = build.indexOf(`// ${marker}\n`);
  if (start < 0) throw new Error(`the Inspector build has no section ${marker}`);
  return build.slice(start, build.indexOf('\n// ', start + 1));
};
const methodStart = build.indexOf('  createMessageTrackingCallbacks() {');
const methodEnd = build.indexOf('  dispatchTaskProgress(message) {', methodStart);
if (methodStart < 0 || methodEnd < 0) throw new Error('the Inspector build has no createMessageTrackingCallbacks');
const method = build.slice(methodStart, methodEnd).replace(/^ {2}createMessageTrackingCallbacks\(\) \{/, 'function createMessageTrackingCallbacks() {');

let clock = Date.parse('2026-12-04T10:00:00.000Z');
const RealDate = Date;
class VirtualDate extends RealDate {
  constructor(...args) {
    if (args.length) super(...args);
    else super(clock);
  }
  static now() {
    return clock;
  }
}
const { TypedEventTarget, MessageLogState, createMessageTrackingCallbacks } = new Function(
  'Date',
  `${section('../../core/mcp/typedEventTarget.ts')}\n${section('../../core/mcp/state/messageLogState.ts')}\n${method}\nreturn { TypedEventTarget, MessageLogState, createMessageTrackingCallbacks };`,
)(VirtualDate);

// The client the log listens to: the Inspector's event target with what the tracking callbacks touch.
const client = new TypedEventTarget();
Object.assign(client, {
  outstandingRequests: new Map(),
  lastAnsweredRequestByMethod: new Map(),
  rateLimits: { take: () => undefined },
  dispatchConnectionDiagnosticsChange() {},
  dispatchTaskProgress() {},
  getStatus: () => 'connected',
});
const log = new MessageLogState(client);
const track = createMessageTrackingCallbacks.call(client);

const at = (ms) => (clock = Date.parse('2026-12-04T10:00:00.000Z') + ms);
const call = (id, name) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { q: 'x' }, _meta: { progressToken: `p${id}` } } });
const result = (id, text) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
at(0);
track.trackRequest({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'inspector', version: '2.12.0' } } }, 'client');
at(12);
track.trackResponse({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'fixture', version: '1' } } }, 'server');
at(20);
track.trackNotification({ jsonrpc: '2.0', method: 'notifications/initialized' }, 'client');
at(100);
track.trackRequest(call(1, 'lookup'), 'client');
at(150);
track.trackNotification({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2 } }, 'server');
at(400);
track.trackResponse(result(1, 'found'), 'server');
at(500);
track.trackRequest(call(2, 'lookup'), 'client');
// The server answers request 2 under the string "2": the Inspector cannot fold it into request 2 either.
at(800);
track.trackResponse(result('2', 'found again'), 'server');

writeFileSync(process.argv[2] ?? 'inspector-2.12-export.json', JSON.stringify(log.getMessages(), null, 2));
