import { describe, expect, it } from 'vitest';
import { loadScenarios, run } from '../../../sim/races/__tests__/helpers';
import { exportTranscript, formatKeeps, racesWireRecords, transcriptRecords, type Observer } from '../export';
import { importTranscript } from '../parse';
import { redactMessage, redactTranscript, hashValue } from '../redact';
import { checkTranscript } from '../checks';
import { transcriptToScenario } from '../toScenario';
import { TRANSCRIPT_FORMATS, type Transcript, type TranscriptFormat, type WireRecord } from '../types';
import type { Json } from '../../../sim/types';
import { replayRaces } from '../../../sim/races';

/** What a record looks like after a round trip through `format` (times relative to the first message). */
function expected(records: WireRecord[], format: TranscriptFormat) {
  const kept = records.filter((r) => formatKeeps(format, r));
  const origin = kept.find((r) => r.type === 'message')!.atMs;
  const carriesTransport = format !== 'claude-desktop-log';
  return kept.map((r) => {
    if (r.type === 'message') return { type: 'message', atMs: r.atMs - origin, direction: r.direction, transport: carriesTransport ? r.transport : 'stdio', message: r.message, ...(r.status !== undefined && format !== 'claude-desktop-log' && format !== 'inspector-v2' ? { status: r.status } : {}) };
    if (r.type === 'meta') {
      const base = { type: 'meta', atMs: r.atMs - origin, kind: r.kind, ...(r.requestId !== undefined ? { requestId: r.requestId } : {}) };
      return format === 'inspector-v2' || format === 'claude-desktop-log' ? base : { ...base, ...(r.cause ? { cause: r.cause } : {}), transport: r.transport };
    }
    return { type: 'stderr', atMs: r.atMs - origin, text: r.text };
  });
}

function actual(t: Transcript, format: TranscriptFormat) {
  return t.entries.map((e) => {
    if (e.type === 'message') return { type: 'message', atMs: e.atMs, direction: e.direction, transport: e.transport, message: e.message, ...(e.status !== undefined ? { status: e.status } : {}) };
    if (e.type === 'meta') {
      const base = { type: 'meta', atMs: e.atMs, kind: e.kind, ...(e.requestId !== undefined ? { requestId: e.requestId } : {}) };
      return format === 'inspector-v2' || format === 'claude-desktop-log' ? base : { ...base, ...(e.cause ? { cause: e.cause } : {}), transport: e.transport };
    }
    return { type: 'stderr', atMs: e.atMs, text: e.text };
  });
}

/** Entries compared in a canonical order: by time, then by content (an Inspector export groups a response with its request). */
const canon = (list: unknown[]) => [...list].map((x) => JSON.stringify(x)).sort((a, b) => JSON.parse(a).atMs - JSON.parse(b).atMs || a.localeCompare(b));

const runs = loadScenarios().flatMap(({ scenario }) => [
  { label: `${scenario.id}`, trace: run(scenario) },
  ...(scenario.expect ?? []).filter((x) => x.overrides).map((x) => ({ label: `${scenario.id} · ${x.label}`, trace: run(scenario, x.overrides as Record<string, Json>) })),
]);

describe('every built-in races run goes round trip through every format', () => {
  for (const { label, trace } of runs) {
    it(label, () => {
      for (const observer of ['client', 'sender'] as Observer[]) {
        const records = racesWireRecords(trace, { observer });
        expect(records.filter((r) => r.type === 'message').length).toBeGreaterThan(0);
        for (const format of TRANSCRIPT_FORMATS) {
          const text = exportTranscript(records, format);
          const r = importTranscript(text);
          if (!r.ok) throw new Error(`${format}: ${r.reason}`);
          expect(r.transcript.format).toBe(format);
          expect(r.transcript.skipped).toEqual([]);
          // The Inspector export merges each response into its request, so compare in time order, ties by content.
          const want = expected(records, format);
          const got = actual(r.transcript, format);
          if (format === 'inspector-v2') expect(canon(got)).toEqual(canon(want));
          else expect(got).toEqual(want);
        }
      }
    });
  }

  it('the client observer sees server messages on arrival; the sender observer when sent (A: latency 20 ms)', () => {
    const a = runs.find((x) => x.label === 'A-cancel-then-complete')!.trace;
    const progressAt = (o: Observer) => racesWireRecords(a, { observer: o }).find((r) => r.type === 'message' && r.direction === 's2c')!.atMs;
    expect(progressAt('client')).toBe(170);
    expect(progressAt('sender')).toBe(150);
  });

  it('stream closes and client timeouts survive the JSONL formats (D over HTTP, F3 timeout)', () => {
    const d = runs.find((x) => x.label === 'D-http-stream-close')!.trace;
    const r = importTranscript(exportTranscript(racesWireRecords(d), 'capture-jsonl'));
    expect(r.ok && r.transcript.entries.filter((e) => e.type === 'meta').map((e) => e.type === 'meta' && [e.kind, e.requestId, e.cause, e.atMs])).toEqual([['stream-close', 'req-7', 'cancel', 500]]);
    const f3 = runs.find((x) => x.label === 'F3-late-result')!.trace;
    for (const format of TRANSCRIPT_FORMATS) {
      const t = importTranscript(exportTranscript(racesWireRecords(f3), format));
      expect(t.ok && t.transcript.entries.filter((e) => e.type === 'meta').map((e) => e.type === 'meta' && [e.kind, e.requestId, e.atMs])).toEqual([['client-timeout', 42, 60000]]);
    }
  });

  it('re-exporting an imported transcript in another format keeps its messages', () => {
    const d = runs.find((x) => x.label.startsWith('D-http-stream-close · bug'))!.trace;
    const first = importTranscript(exportTranscript(racesWireRecords(d), 'capture-jsonl'));
    if (!first.ok) throw new Error(first.reason);
    const again = importTranscript(exportTranscript(transcriptRecords(first.transcript), 'jsonrpc-jsonl'));
    if (!again.ok) throw new Error(again.reason);
    expect(actual(again.transcript, 'jsonrpc-jsonl')).toEqual(actual(first.transcript, 'capture-jsonl'));
  });
});

describe('redaction: argument and result values hashed, keys and ids kept', () => {
  const request = { jsonrpc: '2.0', id: 'c-1', method: 'tools/call', params: { name: 'charge', arguments: { account: 'acct-1', amount: 500, tags: ['vip'] }, _meta: { progressToken: 'p1' } } };
  const response = { jsonrpc: '2.0', id: 'c-1', result: { content: [{ type: 'text', text: 'receipt charge-001' }], structuredContent: { receipt: 'charge-001' }, isError: false, resultType: 'complete' } };

  it('hashes values with SHA-256 and keeps keys, ids, methods, tool names and tokens', () => {
    const r = redactMessage(request) as typeof request;
    expect(r.id).toBe('c-1');
    expect(r.method).toBe('tools/call');
    expect(r.params.name).toBe('charge');
    expect(r.params._meta).toEqual({ progressToken: 'p1' });
    expect(Object.keys(r.params.arguments)).toEqual(['account', 'amount', 'tags']);
    expect(r.params.arguments.account).toBe(hashValue('acct-1'));
    expect(r.params.arguments.amount).toBe(hashValue(500));
    expect(r.params.arguments.tags).toEqual([hashValue('vip')]);
    // SHA-256("\"acct-1\"") — node:crypto agrees with @noble/hashes.
    expect(hashValue('acct-1')).toMatch(/^sha256:[0-9a-f]{16}$/);
    const s = redactMessage(response) as typeof response;
    expect(s.result.content).toEqual([{ type: 'text', text: hashValue('receipt charge-001') }]);
    expect(s.result.structuredContent).toEqual({ receipt: hashValue('charge-001') });
    expect([s.result.isError, s.result.resultType]).toEqual([false, 'complete']);
    expect(JSON.stringify(s)).not.toContain('charge-001');
  });

  it('the hash is SHA-256 of the value\'s JSON text', async () => {
    const { createHash } = await import('node:crypto');
    expect(hashValue('acct-1')).toBe(`sha256:${createHash('sha256').update('"acct-1"').digest('hex').slice(0, 16)}`);
  });

  it('a redacted export still imports, checks the same, and hides every argument and result value', () => {
    const f5 = runs.find((x) => x.label.startsWith('F5-fifty-timeouts · bug'))!.trace;
    const records = racesWireRecords(f5);
    for (const format of TRANSCRIPT_FORMATS) {
      const plain = importTranscript(exportTranscript(records, format));
      const redacted = importTranscript(exportTranscript(records, format, { redact: true }));
      if (!plain.ok || !redacted.ok) throw new Error('import failed');
      const checks = (t: Transcript) => checkTranscript(t, { schema: false }).findings.map((f) => [f.check, f.entries]);
      expect(checks(redacted.transcript)).toEqual(checks(plain.transcript));
      const plainText = /type\\?":\s*\\?"text\\?",\s*\\?"text\\?":\s*\\?"(?!sha256:)/;
      expect(exportTranscript(records, format)).toMatch(plainText);
      expect(exportTranscript(records, format, { redact: true })).not.toMatch(plainText);
      expect(redactTranscript(plain.transcript).entries.map((e) => e.type)).toEqual(plain.transcript.entries.map((e) => e.type));
    }
  });
});

describe('open as a scenario', () => {
  const STATE = (s: string) => (s.startsWith('timeout') ? 'timeout' : s);
  it('a transcript of each built-in run opens as a valid races scenario that replays to the same request outcomes', () => {
    let compared = 0;
    for (const { label, trace } of runs) {
      const config = trace.scenario.config as { latencyMs: { clientToServer: number; serverToClient: number }; policy?: Record<string, boolean>; hop?: unknown; stdioReader?: unknown };
      const policy = config.policy ?? {};
      const t = importTranscript(exportTranscript(racesWireRecords(trace), 'capture-jsonl'));
      if (!t.ok) throw new Error(t.reason);
      const r = transcriptToScenario(t.transcript, { latencyMs: config.latencyMs });
      if (!r.ok) throw new Error(`${label}: ${r.errors.join('; ')}`);
      expect(r.scenario.lab).toBe('races');
      const replayed = replayRaces(r.scenario);
      // Client-side bugs leave no trace on the wire; compare the runs whose client and server follow the rules.
      // An intermediary hop (config.hop, I5) acts on the wire for the client (its cancel, its error); a transcript carries no hop, so those runs are not compared either.
      // A client's stdio reader with a message-size limit (config.stdioReader, K2) fails a call on a line's size, which a transcript does not carry either.
      if (Object.values(policy).some(Boolean) || config.hop !== undefined || config.stdioReader !== undefined) continue;
      const outcome = (o: typeof trace.outcome) => o.requests.filter((x) => x.state !== 'rejected').map((x) => [x.key, STATE(x.state), x.finalResponse]);
      expect({ label, outcome: outcome(replayed.outcome) }).toEqual({ label, outcome: outcome(trace.outcome) });
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(11);
  });

  it('keeps the transcript\'s ids and times, and can take one call', () => {
    const f5 = runs.find((x) => x.label === 'F5-fifty-timeouts')!.trace;
    const t = importTranscript(exportTranscript(racesWireRecords(f5), 'jsonrpc-jsonl'));
    if (!t.ok) throw new Error(t.reason);
    const one = transcriptToScenario(t.transcript, { requestId: 7 });
    if (!one.ok) throw new Error(one.errors.join('; '));
    expect(one.scenario.id).toBe('imported-7');
    expect(one.scenario.events.map((e) => [e.at, e.kind, e.requestId])).toEqual([[0, 'start', 7]]);
    // The client timed out at 5000 ms: the start carries that as its maximum, so the replay times out there.
    expect(one.scenario.events[0].maxTimeoutMs).toBe(5000);
    const replayed = replayRaces(one.scenario).outcome.requests[0];
    expect([replayed.state, replayed.atMs]).toEqual(['timeout-max', 5000]);
    const shifted = transcriptToScenario(t.transcript, { requestId: 7, shiftToZero: true, maxTimeoutMs: 9000, idleTimeoutMs: 1000 });
    expect(shifted.ok && shifted.scenario.events[0]).toMatchObject({ at: 0, maxTimeoutMs: 9000, idleTimeoutMs: 1000 });
  });

  it('lists what it cannot carry over, and injects a malformed cancellation as-is', () => {
    const e = runs.find((x) => x.label === 'E-invalid-cancels')!.trace;
    const t = importTranscript(exportTranscript(racesWireRecords(e), 'inspector-v2'));
    if (!t.ok) throw new Error(t.reason);
    const r = transcriptToScenario(t.transcript);
    if (!r.ok) throw new Error(r.errors.join('; '));
    expect(r.scenario.events.map((x) => x.kind)).toEqual(['start', 'inject', 'inject', 'inject', 'inject', 'inject', 'inject', 'complete']);
    const withInit = importTranscript('{"ts":0,"dir":"req","from":"client","jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n{"ts":5,"dir":"req","from":"client","jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}');
    if (!withInit.ok) throw new Error(withInit.reason);
    const s = transcriptToScenario(withInit.transcript);
    expect(s.dropped).toEqual([{ index: 0, reason: 'initialize: the races lab models tools/call and subscriptions/listen calls only' }]);
  });
});
