import { describe, expect, it } from 'vitest';
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { reconnectPlan, type ReconnectInput } from '../reconnect';

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
