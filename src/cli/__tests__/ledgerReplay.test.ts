import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSqlJsNode } from '../../db/node';
import { memoryOpener } from '../../db/sqljs';
import type { OpenDatabase } from '../../sim/ledger';
import { main } from '../replay';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const file = (id: string) => path.join(root, 'public/scenarios/ledger', `${id}.json`);
let open: OpenDatabase;
beforeAll(async () => {
  open = memoryOpener(await loadSqlJsNode());
});

describe('replay CLI on ledger scenarios', () => {
  it('reports executions, connection replies, invariants and --config overrides', () => {
    const naive = JSON.parse(main([file('B-race-interleaved')], undefined, open).stdout);
    expect(naive.summary).toMatchObject({ executions: 2, connA: 'executed', connB: 'constraint' });
    expect(naive.invariants.find((i: { name: string }) => i.name === 'at-most-once').holds).toBe(false);
    const r = main([file('B-race-interleaved'), '--config', '{"policy":"immediate"}'], undefined, open);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ executions: 1, connB: 'replayed' });
  });

  it('checks every wire message against the official schema and marks the lost response', () => {
    const doc = JSON.parse(main([file('F-lost-response')], undefined, open).stdout);
    expect(doc.wire.map((w: { atMs: number; from: string; lost?: boolean }) => [w.atMs, w.from, w.lost ?? false])).toEqual([
      [0, 'client', false],
      [2000, 'client', false],
      [2000, 'server', false],
      [3000, 'server', true],
      [4000, 'client', false],
      [4000, 'server', false],
    ]);
    expect(doc.wire.every((w: { schema: string }) => w.schema.startsWith('valid'))).toBe(true);
  });

  it('--expect meets every expectation of every ledger file; without sql.js it says what is missing', () => {
    for (const id of ['A-race-two-connections', 'B-race-interleaved', 'C-no-key-retries', 'D-same-key', 'E-dispatched-twice', 'F-lost-response']) {
      const r = main([file(id), '--expect'], undefined, open);
      expect(r.code, id).toBe(0);
      expect(JSON.parse(r.stdout).expectations.every((e: { met: boolean }) => e.met)).toBe(true);
    }
    expect(main([file('D-same-key')], undefined, undefined)).toEqual({ code: 1, stdout: '', stderr: 'error: ledger scenarios need SQLite (sql.js); call main() with a database opener\n' });
    const bad = main([file('D-same-key'), '--config', '{"policy":"hope"}'], undefined, open);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('config.policy');
  });

  it('npm run replay loads sql.js itself', () => {
    const r = spawnSync('npx', ['tsx', 'src/cli/replay.ts', file('E-dispatched-twice')], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ charges: 1, records: 1, replayed: 1 });
  }, 300_000);
});
