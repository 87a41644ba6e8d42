import { describe, expect, it, vi } from 'vitest';
import { onFakeTimers } from './cases';
import { SdkV2Session } from './harnessV2';

// subscriptions/listen (2026-07-28) on the real SDK v2, for the races lab's L scenario and the
// listen rules of issue 23 item 2 (ack first; teardown over Streamable HTTP, upstream
// modelcontextprotocol#3348). Asserted as the SDK behaves — server/src/server/listenRouter.ts (the
// ack is written first; closeAll() ends each stream with the empty listen result), client
// client/src/client/client.ts Client.listen / McpSubscription.close (aborts the stream AND sends
// notifications/cancelled) — with the negotiated revision. Not compared with the lab: its listen
// rules are being changed by the audit work.

type Msg = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

onFakeTimers();

/** A started pair on `link` with one listen for tools/list_changed acknowledged; the wire after the handshake. */
async function listening(link: 'stdio' | 'http') {
  vi.setSystemTime(0);
  const s = new SdkV2Session(link);
  await s.start({ clientToServer: 0, serverToClient: 0 }, advance);
  const from = s.wire.length;
  const pending = s.client.listen({ toolsListChanged: true });
  await advance(100);
  const sub = await pending;
  return { s, sub, wire: () => s.wire.slice(from).map((w) => ({ at: w.atMs, dir: w.direction, m: w.message as unknown as Msg })) };
}

describe('SDK v2 subscriptions/listen on 2026-07-28', () => {
  for (const link of ['stdio', 'http'] as const) {
    it(`${link}: the acknowledgement is the first message on the listen stream and carries the honoured filter; the client's close() sends notifications/cancelled for the listen id (over HTTP too, as a POST, beside closing the stream) and the subscription ends 'local'`, async () => {
      const { s, sub, wire } = await listening(link);
      expect(s.negotiated).toBe('2026-07-28');
      const w = wire();
      expect(w.map((x) => `${x.dir} ${x.m.method ?? 'response'}`)).toEqual(['c2s subscriptions/listen', 's2c notifications/subscriptions/acknowledged']);
      const listenId = w[0].m.id;
      expect(sub.honoredFilter).toEqual({ toolsListChanged: true });
      await advance(1000);
      await sub.close();
      await advance(100);
      expect(await Promise.race([sub.closed, Promise.resolve('still open')])).toBe('local');
      const after = wire().slice(2);
      expect(after.map((x) => `${x.at} ${x.dir} ${x.m.method}`)).toEqual(['1100 c2s notifications/cancelled']);
      expect(after[0].m.params?.requestId).toBe(listenId);
      if (link === 'http') expect(s.requests).toEqual(['POST 200', 'POST 200', 'POST 202']);
    });
  }

  it('http: the server\'s own teardown (createMcpHandler close) ends the listen stream with the empty subscriptions/listen result stamped with the subscription id — no notifications/cancelled from the server — and the client sees it as graceful (the SDK takes the subscriptions page\'s reading of modelcontextprotocol#3348)', async () => {
    const { s, sub, wire } = await listening('http');
    expect(s.negotiated).toBe('2026-07-28');
    await s.httpHandler!.close();
    await advance(100);
    expect(await Promise.race([sub.closed, Promise.resolve('still open')])).toBe('graceful');
    const after = wire().slice(2);
    expect(after.map((x) => `${x.dir} ${x.m.method ?? 'response'}`)).toEqual(['s2c response']);
    expect(after[0].m.result).toMatchObject({ resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': wire()[0].m.id } });
  });
});
