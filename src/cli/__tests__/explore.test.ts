import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { exploreCommand } from '../explore';
import { captureStdio } from './captureStdio';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const file = (lab: string, id: string) => path.join(root, 'public/scenarios', lab, `${id}.json`);

/** Runs the explore command, capturing what it prints. */
const run = (argv: string[], readFile?: (p: string) => string) => captureStdio(() => exploreCommand(argv, readFile));

afterEach(() => vi.restoreAllMocks());

describe('explore CLI (All orders)', () => {
  it('--events a,b,c prints the classes as JSON with counts, example orders and broken invariants; exit 0 when none breaks', async () => {
    const r = await run([file('races', 'A-cancel-then-complete'), '--events', 'cancel,complete']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ scenario: { id: 'A-cancel-then-complete', lab: 'races' }, events: ['cancel', 'complete'], total: 2, evaluated: 2, canBreak: false });
    expect(doc.classes).toEqual([
      { key: '1:cancelled', count: 1, example: ['cancel', 'complete'], inversions: 0, broken: [] },
      { key: '1:completed', count: 1, example: ['complete', 'cancel'], inversions: 1, broken: [] },
    ]);
  });

  it('exits 3 when some order breaks an invariant', async () => {
    const c = JSON.parse(readFileSync(file('races', 'C-progress-idle-maximum'), 'utf8'));
    c.config.policy = { ...(c.config.policy ?? {}), progressResetsMaximum: true };
    const r = await run(['c.json'], () => JSON.stringify(c));
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.canBreak).toBe(true);
    expect(doc.classes.some((k: { broken: string[] }) => k.broken.includes('maximum-deadline-fixed'))).toBe(true);
  });

  it('explores flow and resilience files over their natural set', async () => {
    const t = await run([file('resilience', 'T1-abort-before-task-id')]);
    expect(t.code).toBe(0);
    expect(JSON.parse(t.stdout)).toMatchObject({ total: 120, evaluated: 30, rejected: 90 });
    const f = await run([file('flow', 'F1-stalled-subscriber')]);
    expect(f.code).toBe(0);
    expect(JSON.parse(f.stdout)).toMatchObject({ scenario: { lab: 'flow' }, events: ['stall'], total: 1, evaluated: 1, canBreak: false });
  });

  it('names an unknown event and refuses a bad command line', async () => {
    const r = await run([file('races', 'A-cancel-then-complete'), '--events', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--events: no event is called "nope"');
    expect((await run([])).code).toBe(2);
    expect((await run([file('races', 'A-cancel-then-complete'), '--frob'])).stderr).toContain('unknown option --frob');
  });
});
