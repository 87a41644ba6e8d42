import { describe, expect, it } from 'vitest';
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import fc from 'fast-check';
import { appStateAfterReconnect, mergeByStableId, reconnectPlan, streamDrop, type ReconnectInput } from '../reconnect';
import { loadFlow, runFlow } from './helpers';

const input: ReconnectInput = {
  droppedId: 7,
  nextId: 12,
  filter: { toolsListChanged: true, resourceSubscriptions: ['file:///b.txt', 'file:///a.txt', 'file:///b.txt'] },
  affectedResources: ['file:///b.txt', 'file:///c.txt', 'file:///a.txt', 'file:///c.txt'],
  inFlight: [
    { id: 9, tool: 'search_docs', unsafe: false },
    { id: 10, tool: 'transfer_funds', unsafe: true },
  ],
  lastEventId: 40,
  eventStore: { oldestId: 35, newestId: 52 },
  sessionId: 'sess-1',
};

const methods = (plan: ReturnType<typeof reconnectPlan>) => plan.filter((s) => s.message).map((s) => (s.message as { method: string }).method);

describe('reconnect plan, 2026-07-28', () => {
  const plan = reconnectPlan('2026-07-28', input);

  it('a new subscriptions/listen with a new id, no Last-Event-ID, the filter restored', () => {
    const listen = plan[0].message as { id: number; method: string; params: { notifications: Json } };
    expect(listen.method).toBe('subscriptions/listen');
    expect(listen.id).toBe(12);
    expect(listen.id).not.toBe(input.droppedId);
    expect(plan[0].http).not.toMatch(/Last-Event-ID:/);
    expect(listen.params.notifications).toEqual({ toolsListChanged: true, resourceSubscriptions: ['file:///a.txt', 'file:///b.txt'] });
  });

  it('refetches affected resources sorted, without duplicates', () => {
    const uris = plan.filter((s) => (s.message as { method?: string } | undefined)?.method === 'resources/read').map((s) => (s.message as { params: { uri: string } }).params.uri);
    expect(uris).toEqual(['file:///a.txt', 'file:///b.txt', 'file:///c.txt']);
  });

  it('re-issues the safe call with a new id and never replays the unsafe mutation', () => {
    expect(methods(plan)).toEqual(['subscriptions/listen', 'resources/read', 'resources/read', 'resources/read', 'tools/call']);
    const call = plan.find((s) => (s.message as { method?: string } | undefined)?.method === 'tools/call')!.message as { id: number; params: { name: string } };
    expect(call.params.name).toBe('search_docs');
    expect(call.id).toBe(16);
    expect(plan.some((s) => s.note.includes('transfer_funds') && s.message === undefined && /not replayed/.test(s.note))).toBe(true);
    const ids = plan.filter((s) => s.message).map((s) => (s.message as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every message validates against the official 2026-07-28 schema', () => {
    for (const s of plan.filter((x) => x.message)) expect(checkMessage('2026-07-28', s.message as Json).errors).toEqual([]);
  });
});

describe('reconnect plan, 2025-11-25', () => {
  it('GET with Last-Event-ID; the store still holds 41–52, so they are replayed and nothing refetched', () => {
    const plan = reconnectPlan('2025-11-25', input);
    expect(plan[0].http).toMatch(/^GET \/mcp .*MCP-Session-Id: sess-1 · Last-Event-ID: 40$/);
    expect(plan[1].note).toMatch(/replays those 12 events/);
    expect(methods(plan)).toEqual([]);
  });

  it('when the store has evicted the id the client refetches (sorted, no duplicates) and still never replays the unsafe call', () => {
    const plan = reconnectPlan('2025-11-25', { ...input, eventStore: { oldestId: 45, newestId: 52 } });
    expect(plan[1].note).toMatch(/evicted 41–44/);
    expect(methods(plan)).toEqual(['resources/read', 'resources/read', 'resources/read']);
    for (const s of plan.filter((x) => x.message)) expect(checkMessage('2025-11-25', s.message as Json).errors).toEqual([]);
    expect(plan.at(-1)!.note).toMatch(/transfer_funds .* Not replayed/);
  });
});

describe('the plan follows the scenario\'s own drop (streamDrop)', () => {
  const f1 = loadFlow('F1-stalled-subscriber');

  it('F1 under disconnect-at-capacity: the drop at 11240 ms, the client saw event 100, the 1024-event store has evicted 101–4976 by the reconnect at 60000 ms', () => {
    const d = streamDrop(runFlow(f1, { policy: 'disconnect' }), 0, { eventStoreEvents: 1024, inFlightSafe: false })!;
    expect(d.assumed).toBe(false);
    expect(d.atMs).toBe(11240);
    expect(d.reconnectAtMs).toBe(60000);
    expect(d.lostAtDrop).toBe(1025);
    expect(d.input.lastEventId).toBe(100);
    expect(d.input.eventStore).toEqual({ oldestId: 4977, newestId: 6000 });
    expect(d.input.filter).toEqual({ resourceSubscriptions: ['flow://streams/feed'] });
    expect(d.input.affectedResources).toEqual(['flow://streams/feed']);
    expect(d.input.inFlight).toEqual([{ id: 2, tool: 'feed', unsafe: true }]);
    const plan2025 = reconnectPlan('2025-11-25', d.input);
    expect(plan2025[0].http).toMatch(/Last-Event-ID: 100$/);
    expect(plan2025[1].note).toMatch(/evicted 101–4976/);
    // Both revisions plan the same drop: the 2026 plan restores the same subscription and refetches the same resource.
    const plan2026 = reconnectPlan('2026-07-28', d.input);
    expect((plan2026[0].message as { params: { notifications: Json } }).params.notifications).toEqual({ resourceSubscriptions: ['flow://streams/feed'] });
    expect(methods(plan2026)).toEqual(['subscriptions/listen', 'resources/read']);
  });

  it('a store as large as the backlog replays it; safe calls are re-issued', () => {
    const d = streamDrop(runFlow(f1, { policy: 'disconnect' }), 0, { eventStoreEvents: 10000, inFlightSafe: true })!;
    expect(reconnectPlan('2025-11-25', d.input)[1].note).toMatch(/replays those 5900 events/);
    expect(methods(reconnectPlan('2026-07-28', d.input))).toEqual(['subscriptions/listen', 'resources/read', 'tools/call']);
  });

  it('a run without a drop assumes one at the playhead; a fleet-only scenario has no single stream', () => {
    const d = streamDrop(runFlow(f1), 5000, { eventStoreEvents: 1024, inFlightSafe: false })!;
    expect(d.assumed).toBe(true);
    expect(d.atMs).toBe(5000);
    expect(d.input.lastEventId).toBe(100);
    expect(d.input.eventStore.newestId).toBe(501);
    expect(streamDrop(runFlow(loadFlow('F2-stream-cap')), 0, { eventStoreEvents: 10, inFlightSafe: false })).toBeNull();
  });
});

describe('application state deduplicated by stable ids (issue 4, item 3)', () => {
  it('a resource seen twice appears once, at its newest version; an older copy never replaces a newer one', () => {
    const held = [{ id: 'file:///a.txt', version: 3, source: 'held' as const }];
    const incoming = [
      { id: 'file:///a.txt', version: 5, source: 'replay' as const },
      { id: 'file:///b.txt', version: 2, source: 'replay' as const },
      { id: 'file:///a.txt', version: 4, source: 'refetch' as const },
    ];
    const m = mergeByStableId(held, incoming);
    expect(m.records).toEqual([
      { id: 'file:///a.txt', version: 5, source: 'replay' },
      { id: 'file:///b.txt', version: 2, source: 'replay' },
    ]);
    expect(m.duplicatesMerged).toBe(2);
    expect(m.staleIgnored).toBe(1);
    // Without the merge, a.txt would show three times.
    expect([...held, ...incoming].filter((r) => r.id === 'file:///a.txt')).toHaveLength(3);
  });

  it('property: one record per id, each at the highest version seen for it, whatever the order', () => {
    const rec = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd'), version: fc.nat(50), source: fc.constantFrom('held' as const, 'replay' as const, 'refetch' as const) });
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 20 }), fc.array(rec, { maxLength: 20 }), (held, incoming) => {
        const m = mergeByStableId(held, incoming);
        const all = [...held, ...incoming];
        const ids = [...new Set(all.map((r) => r.id))].sort();
        expect(m.records.map((r) => r.id)).toEqual(ids);
        for (const r of m.records) expect(r.version).toBe(Math.max(...all.filter((x) => x.id === r.id).map((x) => x.version)));
        expect(m.duplicatesMerged).toBe(all.length - ids.length);
      }),
    );
  });

  it('F1 drop: the client holds feed at event 100; the 2025 replay of 5900 events and the 2026 refetch each leave ONE feed record, at event 6000', () => {
    const d = streamDrop(runFlow(loadFlow('F1-stalled-subscriber'), { policy: 'disconnect' }), 0, { eventStoreEvents: 10000, inFlightSafe: false })!;
    expect(d.input.appState).toEqual([{ id: 'flow://streams/feed', version: 100, source: 'held' }]);
    const replay = appStateAfterReconnect('2025-11-25', d.input);
    expect(replay.incoming).toHaveLength(5900);
    expect(replay.naive).toHaveLength(5901); // appended: feed 5901 times
    expect(replay.merged.records).toEqual([{ id: 'flow://streams/feed', version: 6000, source: 'replay' }]);
    expect(replay.merged.duplicatesMerged).toBe(5900);
    const refetch = appStateAfterReconnect('2026-07-28', d.input);
    expect(refetch.naive.map((r) => [r.id, r.version])).toEqual([['flow://streams/feed', 100], ['flow://streams/feed', 6000]]);
    expect(refetch.merged.records).toEqual([{ id: 'flow://streams/feed', version: 6000, source: 'refetch' }]);
    // The plans' merge steps say so.
    const last2026 = reconnectPlan('2026-07-28', d.input).at(-1)!;
    expect(last2026.note).toContain('1 incoming record + 1 held → 1 record');
    expect(last2026.note).toContain('appending without dedup would show 2');
    expect(reconnectPlan('2025-11-25', d.input).at(-1)!.note).toContain('5900 incoming records + 1 held → 1 record, each at its newest version (5900 duplicates merged; appending without dedup would show 5901)');
  });

  it('R2, a drop assumed at 400 ms while the client has seen nothing: two refetched resources, nothing to merge, A at event 5 and B at event 4', () => {
    const d = streamDrop(runFlow(loadFlow('R2-two-tokens')), 400, { eventStoreEvents: 3, inFlightSafe: false })!;
    expect(d.input.appState).toEqual([]);
    const a = appStateAfterReconnect('2026-07-28', d.input);
    expect(a.merged.records.map((r) => [r.id, r.version])).toEqual([['flow://streams/A', 5], ['flow://streams/B', 4]]);
    expect(a.merged.duplicatesMerged).toBe(0);
    expect(a.naive).toEqual(a.merged.records);
  });
});
