/**
 * `mcp-lab probe` against real software: the lab's SDK v2 fixture server (correct, and each
 * broken variant that one probe must catch), over stdio and Streamable HTTP under both revisions,
 * and the registry's server-everything over stdio (what the probe finds there is pinned here with
 * its evidence). Real processes, sockets on 127.0.0.1 (port 0), real SDK clients; every wait bounded.
 *
 * A target is one value (`ProbeTarget`: a command or a URL): to probe `mcp-lab serve` with a fault,
 * pass `{ kind: 'stdio', command, args: ['serve', '--fault', NAME] }` or its URL to `probeTarget`.
 */
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importTranscript } from '../../../wire/transcript';
import { captureStdio } from '../../../cli/__tests__/captureStdio';
import { probeCommand, runProbe, type ProbeReport } from '../command';
import type { ProbeFinding, ProbeId } from '../findings';
import type { ProbeTarget } from '../session';
import { fixtureStdio, serverEverythingStdio, startFixtureHttp } from '../../__tests__/targets';
import type { Revision } from '../../../sim/mcp';

/** The fixture's slow call: 8 steps of 60 ms (progress every 60 ms, 480 ms in all). */
const SLOW = { steps: 8, intervalMs: 60 };

/** Runs every probe on `target` (with `tool` and `args`: the cancel probes too). */
export async function probeTarget(target: ProbeTarget, revision: Revision | null, tool: string | null = 'slow', args: Record<string, unknown> = SLOW): Promise<ProbeReport> {
  return runProbe({ target, revision, tool, args, json: true, checksJson: null, record: null, timeoutMs: 10_000 });
}

const byId = (r: ProbeReport) => Object.fromEntries(r.findings.map((f) => [f.check, f])) as Record<ProbeId, ProbeFinding>;
const verdicts = (r: ProbeReport) => Object.fromEntries(r.findings.map((f) => [f.check, f.verdict]));

const ALL_PASS = {
  handshake: 'pass',
  'cancel-unknown-id': 'pass',
  'malformed-cancels': 'pass',
  'ping-notification': 'pass',
  'cancel-stops-work': 'pass',
  'progress-monotonic': 'pass',
  'survives-cancel': 'pass',
  'rapid-cancel-cycles': 'pass',
  'idempotency-once': 'not-applicable',
  'one-response-per-request': 'pass',
  'progress-stops-at-result': 'pass',
};

describe('probe against the correct fixture', () => {
  it.each(['2026-07-28', '2025-11-25'] as const)('stdio, %s: every probe passes (idempotency not applicable) and the revision is the one asked', async (revision) => {
    const r = await probeTarget(fixtureStdio('ok'), revision);
    expect(r.revision).toBe(revision);
    expect(r.transport).toBe('stdio');
    expect(verdicts(r)).toEqual(ALL_PASS);
    expect(r.clean).toBe(true);
    const cancel = byId(r)['cancel-stops-work'];
    // The evidence has the call, its progress before the cancel and the cancel itself, with times.
    expect(cancel.evidence.some((e) => e.message?.method === 'notifications/cancelled')).toBe(true);
    expect(cancel.evidence.filter((e) => e.message?.method === 'notifications/progress').length).toBeGreaterThanOrEqual(2);
    expect(cancel.message).toMatch(/listened 2000 ms/);
  });

  it('Streamable HTTP, 2026-07-28: the cancel closes the stream, so cancel-stops-work is not observed; the rest pass', async () => {
    const http = await startFixtureHttp('ok');
    try {
      const r = await probeTarget({ kind: 'http', url: http.url }, '2026-07-28');
      expect(r.revision).toBe('2026-07-28');
      expect(verdicts(r)).toEqual({ ...ALL_PASS, 'cancel-stops-work': 'not-observed' });
      // No notifications/cancelled for the call went on the wire: the stream close is the signal.
      const c = byId(r)['cancel-stops-work'];
      expect(c.evidence.some((e) => e.message?.method === 'notifications/cancelled')).toBe(false);
      expect(r.clean).toBe(true);
    } finally {
      await http.stop();
    }
  });

  it("Streamable HTTP, 2025-11-25: the SDK's stateless createMcpHandler never hands the POSTed cancel to the call (pinned: the work goes on and the result comes)", async () => {
    const http = await startFixtureHttp('ok');
    try {
      const r = await probeTarget({ kind: 'http', url: http.url }, '2025-11-25');
      expect(r.revision).toBe('2025-11-25');
      const c = byId(r)['cancel-stops-work'];
      expect(c.verdict).toBe('fail');
      expect(c.severity).toBe('warning'); // 2025-11-25: a SHOULD
      expect(c.evidence.some((e) => e.direction === 'c2s' && e.message?.method === 'notifications/cancelled')).toBe(true);
      const late = c.evidence.filter((e) => (e.afterCancelMs ?? 0) > 100);
      expect(late.some((e) => 'result' in (e.message ?? {}))).toBe(true);
      expect(r.clean).toBe(false);
    } finally {
      await http.stop();
    }
  });
});

describe('probe against the broken fixtures: the probe meant for each fails, the others do not', () => {
  it('answers-after-cancel: cancel-stops-work fails with the late progress and result, each with its delay', async () => {
    const r = await probeTarget(fixtureStdio('answers-after-cancel'), '2026-07-28');
    const c = byId(r)['cancel-stops-work'];
    expect(c.verdict).toBe('fail');
    expect(c.severity).toBe('error'); // 2026-07-28: MUST NOT send further messages
    const late = c.evidence.filter((e) => (e.afterCancelMs ?? 0) > 100);
    expect(late.some((e) => e.message?.method === 'notifications/progress')).toBe(true);
    expect(late.some((e) => 'result' in (e.message ?? {}))).toBe(true);
    expect(verdicts(r)['rapid-cancel-cycles']).toBe('fail');
    for (const id of ['handshake', 'cancel-unknown-id', 'ping-notification', 'progress-monotonic', 'survives-cancel', 'one-response-per-request'] as const) expect(verdicts(r)[id]).toBe('pass');
  });

  it('non-monotonic: progress-monotonic fails (2 → 2) and the cancel probes pass', async () => {
    const r = await probeTarget(fixtureStdio('non-monotonic'), '2025-11-25');
    const p = byId(r)['progress-monotonic'];
    expect(p.verdict).toBe('fail');
    expect(p.severity).toBe('error');
    expect(p.message).toMatch(/went 2 → 2/);
    expect(verdicts(r)['cancel-stops-work']).toBe('pass');
    expect(verdicts(r)['survives-cancel']).toBe('pass');
  });

  it('dies-on-malformed: malformed-cancels fails and every later probe is not observed (never a hang)', async () => {
    const r = await probeTarget(fixtureStdio('dies-on-malformed'), '2025-11-25');
    const m = byId(r)['malformed-cancels'];
    expect(m.verdict).toBe('fail');
    expect(m.message).toMatch(/non-string reason/);
    expect(verdicts(r)['cancel-unknown-id']).toBe('pass');
    for (const id of ['ping-notification', 'cancel-stops-work', 'survives-cancel', 'rapid-cancel-cycles'] as const) expect(verdicts(r)[id]).toBe('not-observed');
  });

  it('keyed: one execution for two calls under one key (pass); double-charge: two (fail)', async () => {
    const ok = await probeTarget(fixtureStdio('keyed'), '2025-11-25');
    expect(byId(ok)['idempotency-once'].verdict).toBe('pass');
    expect(byId(ok)['idempotency-once'].message).toMatch(/count 1 then 1/);
    const bad = await probeTarget(fixtureStdio('double-charge'), '2025-11-25');
    expect(byId(bad)['idempotency-once'].verdict).toBe('fail');
    expect(byId(bad)['idempotency-once'].message).toMatch(/count 1 then 2/);
  });
});

describe('probe against @modelcontextprotocol/server-everything (a registry server nobody here wrote), stdio', () => {
  let report: ProbeReport;
  beforeAll(async () => {
    // Its long-running tool: `duration` seconds in `steps` steps, progress at each step when asked.
    report = await probeTarget(serverEverythingStdio(), null, 'trigger-long-running-operation', { duration: 1.6, steps: 8 });
  });

  it('negotiates 2025-11-25: the SDK client probed with server/discover and the server (SDK v1) answered -32601', () => {
    expect(report.revision).toBe('2025-11-25');
    expect(verdicts(report).handshake).toBe('pass');
  });

  it('keeps sending progress for a cancelled call (pinned: cancel-stops-work fails, a SHOULD), but no result', () => {
    const c = byId(report)['cancel-stops-work'];
    expect(c.verdict).toBe('fail');
    expect(c.severity).toBe('warning');
    const late = c.evidence.filter((e) => (e.afterCancelMs ?? 0) > 100);
    expect(late.length).toBeGreaterThanOrEqual(3);
    expect(late.every((e) => e.message?.method === 'notifications/progress')).toBe(true);
    expect(verdicts(report)['rapid-cancel-cycles']).toBe('fail');
  });

  it('passes the safe probes, monotonic progress and survival; takes no idempotency key', () => {
    expect(verdicts(report)).toMatchObject({
      'cancel-unknown-id': 'pass',
      'malformed-cancels': 'pass',
      'ping-notification': 'pass',
      'progress-monotonic': 'pass',
      'survives-cancel': 'pass',
      'idempotency-once': 'not-applicable',
      'one-response-per-request': 'pass',
      'progress-stops-at-result': 'pass',
    });
    expect(byId(report)['malformed-cancels'].message).toMatch(/with an id: answered \{"code":-32601/);
  });
});

describe('probe command: exit codes, one line on bad input, never a hang', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'probe-'));
  });
  const node = JSON.stringify(process.execPath);

  it('exit 0 with --record (a capture-jsonl file check reads) and --checks-json (the conformance suite shape)', async () => {
    const rec = path.join(dir, 'rec.jsonl');
    const checks = path.join(dir, 'checks.json');
    const r = await captureStdio(() => probeCommand(['--command', `${node} ${(fixtureStdio('ok') as { args: string[] }).args.join(' ')}`, '--revision', '2026-07-28', '--record', rec, '--checks-json', checks]));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/PASS {9}handshake — negotiated 2026-07-28 over stdio/);
    const imported = importTranscript(readFileSync(rec, 'utf8'));
    expect(imported.ok).toBe(true);
    if (imported.ok) expect(imported.transcript.format).toBe('capture-jsonl');
    const doc = JSON.parse(readFileSync(checks, 'utf8')) as { id: string; status: string; timestamp: string; specReferences: unknown[] }[];
    expect(doc.map((c) => c.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'SKIPPED', 'SUCCESS', 'SKIPPED']);
    expect(doc[0].id).toBe('mcp-lab-probe-handshake');
    expect(doc[0].specReferences.length).toBe(1);
  });

  it('--window-ms sets how long the probe listens after the cancel (the finding says so)', async () => {
    const t = fixtureStdio('ok') as { args: string[] };
    const r = await captureStdio(() => probeCommand(['--command', `${node} ${t.args.join(' ')}`, '--tool', 'slow', '--args', JSON.stringify(SLOW), '--window-ms', '2700', '--json']));
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as ProbeReport;
    expect(doc.findings.find((f) => f.check === 'cancel-stops-work')?.message).toMatch(/listened 2700 ms/);
  });

  it('exit 3 when a rule is broken, with --json one document', async () => {
    const t = fixtureStdio('answers-after-cancel') as { args: string[] };
    const r = await captureStdio(() => probeCommand(['--command', `${node} ${t.args.join(' ')}`, '--tool', 'slow', '--args', JSON.stringify(SLOW), '--json']));
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout) as ProbeReport;
    expect(doc.clean).toBe(false);
    expect(doc.findings.find((f) => f.check === 'cancel-stops-work')?.verdict).toBe('fail');
  });

  it.each([
    ['no such command', ['--command', 'mcp-lab-no-such-command-xyz'], /probe: .*(ENOENT|spawn)/],
    ['a server that exits at once', ['--command', `${node} -e "process.exit(4)"`], /probe: .*handshake failed/],
    ['a server that sends garbage', ['--command', `${node} -e "setInterval(()=>console.log('garbage'),50)"`, '--timeout-ms', '1500'], /probe: .*handshake failed/],
    ['a server that never answers', ['--command', `${node} -e "setInterval(()=>{},1000)"`, '--timeout-ms', '1500'], /probe: .*handshake failed/],
    ['a URL that refuses', ['--url', 'http://127.0.0.1:9/mcp', '--timeout-ms', '1500'], /probe: .*handshake failed/],
  ])('%s: exit 1 with one line', async (_label, argv, line) => {
    const started = Date.now();
    const r = await captureStdio(() => probeCommand(argv as string[]));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it.each([
    ['bad --args', ['--command', 'x', '--args', '[1]'], /probe: --args: must be a JSON object/],
    ['both --command and --url', ['--command', 'x', '--url', 'http://127.0.0.1:1/mcp'], /probe: give exactly one of/],
  ])('%s: a bad command line exits 2 with one line, as serve and check do', async (_label, argv, line) => {
    const started = Date.now();
    const r = await captureStdio(() => probeCommand(argv as string[]));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

