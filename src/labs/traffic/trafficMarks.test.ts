import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callSpans, importTranscript, type Transcript } from '../../wire/transcript';
import { MAX_DETAILED_MARKS, trafficDomain, trafficMarks } from './trafficMarks';
import { createTrafficRunner, type TrafficWorker } from './trafficRunner';
import { createTrafficStore } from '../../store/trafficStore';
import type { TrafficReply, TrafficRequest } from './trafficProtocol';

const load = (text: string): Transcript => {
  const r = importTranscript(text);
  if (!r.ok) throw new Error(r.reason);
  return r.transcript;
};

describe('traffic timeline marks', () => {
  it('a timed-out call is a span ending at the timeout; its late response is the server’s work to 74049 ms', () => {
    const t = load(readFileSync('public/transcripts/claude-desktop/mcp-server-lab-late-result.log', 'utf8'));
    const spans = callSpans(t);
    const all = t.entries.map((e) => e.index);
    const marks = trafficMarks(t, spans, all, [], null, 0);
    const call = marks.find((m) => m.kind === 'span' && m.lane === 'client' && m.row === 'calls');
    expect(call).toMatchObject({ at: 0, to: 60000, open: false, endCap: 'bar', tone: 'warn' });
    const work = marks.find((m) => m.kind === 'span' && m.lane === 'server' && m.row === 'calls');
    expect(work).toMatchObject({ at: 0, to: 74049, tone: 'warn' });
    expect(marks.filter((m) => m.kind === 'marker' && m.id.startsWith('entry-'))).toHaveLength(1); // the client timeout
    expect(trafficDomain(t)[1]).toBeGreaterThan(74049);
  });

  it('the axis fits the data: 3 bare JSON-RPC lines (0–2 ms at 1 ms per line) draw over 0–11 ms, not 0–100', () => {
    const t = load(['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"q","arguments":{}}}', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}', '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}'].join('\n'));
    expect(t.entries.map((e) => e.atMs)).toEqual([0, 1, 2]);
    expect(trafficDomain(t)).toEqual([0, 11]);
    // 60 ms of data: the range ends a little after the last entry.
    const u = load('{"ts":0,"dir":"req","jsonrpc":"2.0","id":1,"method":"ping"}\n{"ts":60,"dir":"res","jsonrpc":"2.0","id":1,"result":{}}');
    expect(trafficDomain(u)).toEqual([0, 63]);
  });

  it('a call with no outcome is open-ended to the end of the range', () => {
    const t = load('{"ts":"2026-01-01T00:00:00.000Z","dir":"req","jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}\n{"ts":"2026-01-01T00:00:02.000Z","dir":"req","jsonrpc":"2.0","id":2,"method":"ping"}\n{"ts":"2026-01-01T00:00:02.010Z","dir":"res","jsonrpc":"2.0","id":2,"result":{}}');
    const marks = trafficMarks(t, callSpans(t), t.entries.map((e) => e.index), [], 0, 0);
    const open = marks.find((m) => m.kind === 'span' && m.id === 'call-client-0');
    expect(open).toMatchObject({ open: true, to: trafficDomain(t)[1], tone: 'muted' });
    expect(marks.find((m) => m.id === 'selected-entry')).toMatchObject({ kind: 'marker', at: 0 });
  });

  it('beyond the detail limit, entries are grouped into buckets and calls become an in-flight series', () => {
    const lines: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const at = new Date(Date.UTC(2026, 0, 1) + i * 10).toISOString();
      lines.push(`{"ts":"${at}","dir":"req","jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"x","arguments":{}}}`);
      lines.push(`{"ts":"${new Date(Date.UTC(2026, 0, 1) + i * 10 + 25).toISOString()}","dir":"res","jsonrpc":"2.0","id":${i},"result":{"content":[]}}`);
    }
    const t = load(lines.join('\n'));
    const shown = t.entries.map((e) => e.index);
    expect(shown.length).toBeGreaterThan(MAX_DETAILED_MARKS);
    const marks = trafficMarks(t, callSpans(t), shown, [], null, 0);
    expect(marks.length).toBeLessThan(400);
    const steps = marks.find((m) => m.kind === 'steps' && m.lane === 'client');
    expect(steps && steps.kind === 'steps' && steps.max).toBe(3); // a 25 ms call every 10 ms: three in flight
  });
});

describe('traffic runner', () => {
  function fakeWorkers() {
    const made: { posted: TrafficRequest[]; terminated: boolean; w: TrafficWorker }[] = [];
    const spawn = () => {
      const rec = { posted: [] as TrafficRequest[], terminated: false, w: null as unknown as TrafficWorker };
      rec.w = { postMessage: (m) => rec.posted.push(m), terminate: () => (rec.terminated = true), onmessage: null };
      made.push(rec);
      return rec.w;
    };
    return { made, spawn, reply: (i: number, m: TrafficReply) => made[i].w.onmessage?.({ data: m } as MessageEvent<TrafficReply>) };
  }

  it('cancel terminates the worker in flight, keeps the transcript and ignores its late reply', () => {
    const store = createTrafficStore();
    const { made, spawn, reply } = fakeWorkers();
    const runner = createTrafficRunner(store, spawn);
    runner.importText('a\nb\nc', 'The file big.log', { allowanceMs: 1000, maxMs: null });
    expect(store.getState().progress).toEqual({ stage: 'parsing', lines: 3, source: 'The file big.log' });
    reply(0, { type: 'progress', job: 1, stage: 'checking' });
    expect(store.getState().progress?.stage).toBe('checking');
    runner.cancel();
    expect(made[0].terminated).toBe(true);
    expect(store.getState().progress).toBeNull();
    expect(store.getState().error?.errors).toEqual(['(transcript): cancelled — import it again to load it']);
    const t = load('{"ts":"2026-01-01T00:00:00.000Z","dir":"req","jsonrpc":"2.0","id":1,"method":"ping"}');
    reply(0, { type: 'imported', job: 1, result: { ok: true, transcript: t }, report: null, spans: [] });
    expect(store.getState().transcript).toBeNull();
    // The next job gets a fresh worker.
    runner.importText('x', 'The pasted text', { allowanceMs: 1000, maxMs: null });
    expect(made).toHaveLength(2);
    expect(made[1].posted[0]).toMatchObject({ type: 'import', job: 3, text: 'x' });
  });

  it('a re-check uses the transcript the worker holds; after a cancel the fresh worker gets it sent', () => {
    const store = createTrafficStore();
    const { made, spawn, reply } = fakeWorkers();
    const runner = createTrafficRunner(store, spawn);
    const t = load('{"ts":"2026-01-01T00:00:00.000Z","dir":"req","jsonrpc":"2.0","id":1,"method":"ping"}');
    runner.importText('…', 'The pasted text', { allowanceMs: 1000, maxMs: null });
    reply(0, { type: 'imported', job: 1, result: { ok: true, transcript: t }, report: null, spans: [] });
    expect(store.getState().transcript).toBe(t);
    runner.recheck({ allowanceMs: 200, maxMs: null });
    expect(made[0].posted[1]).toEqual({ type: 'check', job: 2, transcript: null, check: { allowanceMs: 200, maxMs: null } });
    runner.cancel();
    runner.recheck({ allowanceMs: 300, maxMs: 5000 });
    expect(made).toHaveLength(2);
    expect(made[1].posted[0]).toEqual({ type: 'check', job: 4, transcript: t, check: { allowanceMs: 300, maxMs: 5000 } });
  });
  it('a big import arrives in parts: the runner joins entries and spans in order; parts of a cancelled job are dropped', () => {
    const store = createTrafficStore();
    const { spawn, reply } = fakeWorkers();
    const runner = createTrafficRunner(store, spawn);
    const t = load(
      ['{"ts":"2026-01-01T00:00:00.000Z","dir":"req","jsonrpc":"2.0","id":1,"method":"ping"}', '{"ts":"2026-01-01T00:00:00.010Z","dir":"res","jsonrpc":"2.0","id":1,"result":{}}', '{"ts":"2026-01-01T00:00:00.020Z","dir":"req","jsonrpc":"2.0","id":2,"method":"ping"}'].join('\n'),
    );
    const spans = callSpans(t);
    runner.importText('…', 'The file a.log', { allowanceMs: 1000, maxMs: null });
    runner.cancel();
    // Job 1 was cancelled: its part must not leak into job 3.
    reply(0, { type: 'part', job: 1, entries: t.entries.slice(0, 1), spans: [] });
    runner.importText('…', 'The file b.log', { allowanceMs: 1000, maxMs: null });
    reply(1, { type: 'part', job: 3, entries: t.entries.slice(0, 2), spans: spans.slice(0, 1) });
    expect(store.getState().transcript).toBeNull();
    reply(1, { type: 'part', job: 3, entries: t.entries.slice(2), spans: spans.slice(1) });
    reply(1, { type: 'imported', job: 3, result: { ok: true, transcript: { ...t, entries: [] } }, report: null, spans: [], parts: true });
    const got = store.getState();
    expect(got.transcript?.entries).toEqual(t.entries);
    expect(got.spans).toEqual(spans);
    expect(got.source).toBe('The file b.log');
  });
});

describe('fault marks and exits (capture envelope v2)', () => {
  it('are markers on the server lane labelled in words; a fault names what it does and the scenario that teaches it', () => {
    const lines = [
      { v: 2, ts: 0, direction: 'c2s', transport: 'stdio', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}' },
      { v: 2, ts: 40, direction: 'meta', transport: 'stdio', event: 'fault', fault: 'ignore-cancel', requestId: 1 },
      { v: 2, ts: 90, direction: 'meta', transport: 'stdio', event: 'exit', code: null, signal: 'SIGKILL' },
    ];
    const r = importTranscript(lines.map((l) => JSON.stringify(l)).join('\n'));
    if (!r.ok) throw new Error(r.reason);
    const t = r.transcript;
    const marks = trafficMarks(t, callSpans(t), t.entries.map((e) => e.index), [], null, 1000);
    const fault = marks.find((m) => m.id === 'entry-1') as { kind: string; lane: string; label?: string; title?: string };
    const exit = marks.find((m) => m.id === 'entry-2') as { kind: string; lane: string; label?: string };
    expect([fault.kind, fault.lane, fault.label]).toEqual(['marker', 'server', 'fault: ignore-cancel']);
    expect(fault.title).toMatch(/^40 ms fault ignore-cancel: the server keeps working after the cancellation.* taught by the races lab's scenario A \(#\/races\)$/);
    expect([exit.kind, exit.lane, exit.label]).toEqual(['marker', 'server', 'exit by SIGKILL']);
  });
});
