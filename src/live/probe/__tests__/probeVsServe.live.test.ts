/**
 * probe against `mcp-lab serve` (issue 22 item 3): with no fault every probe passes or is not
 * applicable; with each server fault of the vocabulary that the probe is built to see
 * (`FAULT_PROBE`), the probe meant for it fails and no other probe does. Real processes: serve as
 * a child over stdio (through tsx, as serve's own live tests run it), the probe's real SDK v2
 * client; every wait is bounded by the probe's own timeouts.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTranscript, importTranscript } from '../../../wire/transcript';
import { FAULT_PROBE } from '../../__tests__/targets';
import { SERVE_COMMAND, ROOT } from '../../serve/testkit';
import { runProbe } from '../command';
import type { ProbeTarget } from '../session';

/** `mcp-lab serve …args` over stdio, as a probe target. */
const serveStdio = (args: readonly string[]): ProbeTarget => ({ kind: 'stdio', command: SERVE_COMMAND[0], args: [...SERVE_COMMAND.slice(1), ...args], cwd: ROOT });

/** slow_job long enough to be cancelled mid-way, with progress every 100 ms. */
const JOB = { durationMs: 1500, progressEveryMs: 100 };

const probe = (args: readonly string[], tool: string | null, revision: '2025-11-25' | '2026-07-28' = '2025-11-25') =>
  runProbe({ target: serveStdio(args), revision, tool, args: JOB, json: true, checksJson: null, record: null, timeoutMs: 20_000 });

describe('probe vs mcp-lab serve over stdio', () => {
  it('a --tool the server does not list is bad input (one line naming the tools it has), not a broken rule', async () => {
    await expect(probe([], 'slow_jbo')).rejects.toThrow(/the server has no tool "slow_jbo" \(--tool\) — it lists .*slow_job/);
  });

  it('no fault: no probe fails, and the cancel probe passes on positive evidence', async () => {
    const r = await probe([], 'slow_job');
    expect(r.findings.filter((f) => f.verdict === 'fail').map((f) => f.check)).toEqual([]);
    expect(r.findings.find((f) => f.check === 'cancel-stops-work')?.verdict).toBe('pass');
  });

  // What serve's faults break, probe by probe. Same as FAULT_PROBE (the fixture's and the proxy's faults) except two:
  // ignore-cancel breaks every cancel, so the rapid cycles fail too; serve's crash-on-cancel exits on the cancel of
  // a call in flight (a cancel for an unknown id is ignored first), so survives-cancel is the probe that sees it.
  const SERVE_BREAKS: Record<string, { probes: string[]; tool: boolean }> = {
    'ignore-cancel': { probes: ['cancel-stops-work', 'rapid-cancel-cycles'], tool: true },
    'progress-after-result': { probes: [FAULT_PROBE['progress-after-result']!.probe], tool: true },
    'duplicate-response': { probes: [FAULT_PROBE['duplicate-response']!.probe], tool: true },
    'response-for-unknown-id': { probes: [FAULT_PROBE['response-for-unknown-id']!.probe], tool: true },
    'crash-on-cancel': { probes: ['survives-cancel'], tool: true },
  };
  it.each(Object.keys(SERVE_BREAKS))('--fault %s: the probes meant for it fail, the others do not', async (fault) => {
    const meant = SERVE_BREAKS[fault];
    const r = await probe(['--fault', fault], meant.tool ? 'slow_job' : null);
    const failed = r.findings.filter((f) => f.verdict === 'fail').map((f) => f.check);
    expect(failed).toEqual(meant.probes);
  });

  it("serve's own frames pass the official schema, the answers it writes by hand too (ignore-cancel under 2026-07-28 carries resultType)", async () => {
    const rec = path.join(tmpdir(), `probe-vs-serve-${process.pid}.jsonl`);
    try {
      const r = await probe(['--fault', 'ignore-cancel', '--record', rec], 'slow_job', '2026-07-28');
      expect(r.revision).toBe('2026-07-28');
      const imported = importTranscript(readFileSync(rec, 'utf8'));
      expect(imported.ok).toBe(true);
      if (!imported.ok) return;
      const late = imported.transcript.entries.filter((e) => e.type === 'message' && e.direction === 's2c' && JSON.stringify(e.message).includes('"resultType":"complete"'));
      expect(late.length).toBeGreaterThan(0);
      // The probe's own malformed cancels fail the schema on purpose; nothing the server sent may.
      const serverSchema = checkTranscript(imported.transcript).findings.filter((f) => f.check === 'schema' && f.entries.some((i) => { const e = imported.transcript.entries[i]; return e.type === 'message' && e.direction === 's2c'; }));
      expect(serverSchema.map((f) => f.message)).toEqual([]);
    } finally {
      rmSync(rec, { force: true });
    }
  });
});
