import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { inputRequired, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { onFakeTimers } from './cases';

// MRTR (multi-round-trip requests, 2026-07-28) on the real SDK v2, for the races lab's M1 and the
// capability rules of issue 23 item 2: a tool that asks for a confirmation with inputRequired.elicit
// and a requestState, driven by SDK v2 clients that do and do not declare elicitation. Asserted as
// the SDK behaves (server/src/server/server.ts Server._invokeInputRequiredCapableHandler, the
// capability check; client: Client's input-required auto-fulfilment), negotiated revision included.
// The lab's races model is not compared here: its MRTR rules are being changed by the audit work.

type Msg = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

onFakeTimers();

/** One stdio-like pair pinned to 2026-07-28 with a `transfer` tool that needs a confirmation; the client declares `capabilities`. */
async function mrtrRun(capabilities: Record<string, unknown>) {
  const [c, s] = InMemoryTransport.createLinkedPair();
  const wire: { dir: 'c2s' | 's2c'; m: Msg }[] = [];
  for (const [t, dir] of [[c, 'c2s'], [s, 's2c']] as const) {
    const send = t.send.bind(t);
    t.send = (m, o) => {
      wire.push({ dir, m: m as Msg });
      return send(m, o);
    };
  }
  const seen: { inputResponses: unknown; requestState: string | undefined }[] = [];
  serveStdio(
    () => {
      const server = new McpServer({ name: 'mrtr-oracle', version: '2.0.0' });
      server.registerTool('transfer', { description: 'moves money once confirmed' }, async (ctx) => {
        const answer = ctx.mcpReq.inputResponses?.confirm;
        seen.push({ inputResponses: ctx.mcpReq.inputResponses, requestState: ctx.mcpReq.requestState() as string | undefined });
        if (!answer) return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: 'Transfer 100 EUR to ACME?', requestedSchema: z.object({ ok: z.boolean() }) }) }, requestState: 'st-1f9c' });
        return { content: [{ type: 'text' as const, text: 'transferred' }] };
      });
      return server;
    },
    { transport: s, legacy: 'reject' },
  );
  const client = new Client({ name: 'lab-mrtr-oracle', version: '2.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const asked: unknown[] = [];
  if ('elicitation' in capabilities)
    client.setRequestHandler('elicitation/create', (req) => {
      asked.push(req.params);
      return { action: 'accept', content: { ok: true } };
    });
  const connecting = client.connect(c);
  await vi.advanceTimersByTimeAsync(0);
  await connecting;
  const outcome = client.callTool({ name: 'transfer', arguments: {} }).then(
    (r) => ({ ok: true as const, text: (r.content as { text?: string }[])[0]?.text }),
    (e: unknown) => ({ ok: false as const, code: (e as { code?: unknown }).code, message: (e as Error).message }),
  );
  await vi.advanceTimersByTimeAsync(100);
  return { negotiated: client.getNegotiatedProtocolVersion(), outcome: await outcome, wire: wire.filter((w) => w.m.method !== 'server/discover' && w.m.id !== 'server-discover-probe-1'), seen, asked };
}

describe('SDK v2 MRTR on 2026-07-28 (M1\'s flow; issue 23 item 2\'s capability rule)', () => {
  it('a client that declares elicitation: round 1 (id 0) is answered input_required with inputRequests.confirm and the requestState; the client fulfils it through its elicitation/create handler and retries as a new request (id 1) with inputResponses and the requestState echoed byte for byte', async () => {
    const r = await mrtrRun({ elicitation: {} });
    expect(r.negotiated).toBe('2026-07-28');
    expect(r.outcome).toEqual({ ok: true, text: 'transferred' });
    const calls = r.wire.filter((w) => w.m.method === 'tools/call').map((w) => w.m);
    expect(calls.map((m) => m.id)).toEqual([0, 1]);
    expect((calls[0].params?._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: {} });
    const first = r.wire.find((w) => w.dir === 's2c' && w.m.id === 0)!.m.result!;
    expect(first.resultType).toBe('input_required');
    expect(first.requestState).toBe('st-1f9c');
    expect(Object.keys(first.inputRequests as object)).toEqual(['confirm']);
    expect((first.inputRequests as Record<string, { method: string }>).confirm.method).toBe('elicitation/create');
    expect(calls[1].params?.inputResponses).toEqual({ confirm: { action: 'accept', content: { ok: true } } });
    expect(calls[1].params?.requestState).toBe('st-1f9c');
    expect(r.asked).toHaveLength(1);
    expect(r.seen.map((x) => x.requestState)).toEqual([undefined, 'st-1f9c']);
    // no server-to-client request on this wire: the elicitation rode inside the result
    expect(r.wire.filter((w) => w.dir === 's2c' && w.m.method !== undefined)).toEqual([]);
  });

  it('a client that does not declare elicitation: the server does not send the inputRequests — it answers -32021 (missing required client capability) naming elicitation.form, and the client does not retry', async () => {
    const r = await mrtrRun({});
    expect(r.negotiated).toBe('2026-07-28');
    expect(r.outcome).toMatchObject({ ok: false, code: -32021 });
    const calls = r.wire.filter((w) => w.m.method === 'tools/call').map((w) => w.m);
    expect(calls.map((m) => m.id)).toEqual([0]);
    expect((calls[0].params?._meta as Record<string, unknown>)['io.modelcontextprotocol/clientCapabilities']).toEqual({});
    const answer = r.wire.find((w) => w.dir === 's2c' && w.m.id === 0)!.m;
    expect(answer.result).toBeUndefined();
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect(r.seen).toHaveLength(1); // the handler ran once and asked; the server refused to forward the ask
  });
});
