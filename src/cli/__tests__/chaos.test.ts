import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chaosCommand, type ChaosIo } from '../chaos';
import { scenarioDir } from '../../sim/__tests__/builtinScenarios';

function io(): ChaosIo & { stdout: string; stderr: string } {
  const sink = { stdout: '', stderr: '', out: (t: string) => void (sink.stdout += t), err: (t: string) => void (sink.stderr += t) };
  return sink;
}

const races = (id: string) => path.join(scenarioDir('races'), `${id}.json`);

describe('chaos command', () => {
  it('exits 0 when no safety invariant breaks, with a summary line', async () => {
    const o = io();
    expect(await chaosCommand([races('A-cancel-then-complete'), '--seeds', '20'], o)).toBe(0);
    expect(o.stdout).toBe('chaos: races A-cancel-then-complete — 20 seeds from 0: no safety invariant broke; liveness: held\n');
    expect(o.stderr).toBe('');
  });

  it('exits 3 and prints each failing seed as a JSON line under --expect when a broken policy breaks', async () => {
    const o = io();
    expect(await chaosCommand([races('F3-late-result'), '--seeds', '5', '--first-seed', '100', '--expect'], o)).toBe(3);
    const lines = o.stdout.trim().split('\n');
    const failing = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { seed: number; violated: string[] });
    expect(failing.map((f) => f.seed)).toEqual([100, 101, 102, 103, 104]);
    expect(failing.every((f) => f.violated.includes('abandon-signals-server'))).toBe(true);
    expect(lines.filter((l) => l.startsWith('chaos:'))).toHaveLength(3);
  });

  it('prints one JSON document with --json', async () => {
    const o = io();
    expect(await chaosCommand([races('F3-late-result'), '--seeds', '3', '--json', '--expect'], o)).toBe(3);
    const doc = JSON.parse(o.stdout) as { runs: { seedsRun: number; smallestFailingSeed: number | null; label: string }[] };
    expect(doc.runs.map((r) => r.seedsRun)).toEqual([3, 3, 3]);
    expect(doc.runs.map((r) => r.smallestFailingSeed)).toEqual([null, null, 0]);
  });

  it('runs a ledger file with SQLite', async () => {
    const o = io();
    expect(await chaosCommand([path.join(scenarioDir('ledger'), 'E-dispatched-twice.json'), '--seeds', '10'], o)).toBe(0);
    expect(o.stdout).toMatch(/^chaos: ledger E-dispatched-twice — 10 seeds from 0: no safety invariant broke/);
  });

  it('exits 1 with one line on unreadable input', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chaos-'));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"format":1,"lab":"races","id":"x","title":"x","config":{},"events":[{"id":"a","at":-1,"actor":"client","kind":"start","requestId":1}]}');
    const o = io();
    expect(await chaosCommand([bad], o)).toBe(1);
    expect(o.stderr).toBe(`error: ${bad}: events[0].at: must be ≥ 0 ms — use a value from 0\n`);
    const m = io();
    expect(await chaosCommand([path.join(dir, 'missing.json')], m)).toBe(1);
    expect(m.stderr).toBe(`error: ${path.join(dir, 'missing.json')}: cannot read the file — ENOENT\n`);
  });

  it('exits 2 on a bad command line', async () => {
    const o = io();
    expect(await chaosCommand([], o)).toBe(2);
    expect(await chaosCommand([races('A-cancel-then-complete'), '--seeds', '0'], o)).toBe(2);
    expect(o.stderr).toContain('--seeds: must be an integer in [1, 1000000], got 0');
    expect(await chaosCommand([races('A-cancel-then-complete'), '--fast'], o)).toBe(2);
    expect(o.stderr).toContain('unknown option --fast');
  });
});
