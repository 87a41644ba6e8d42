import { beforeAll, describe, expect, it } from 'vitest';
import { replayLedger, ledgerStateAt, type OpenDatabase } from '..';
import { build, opener } from './helpers';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

type Step = [conn: 'A' | 'B', kind: 'begin' | 'read' | 'execute' | 'write' | 'commit', atMs: number];
const race = (policy: string, steps: Step[], busy = 'wait') =>
  replayLedger(build({ policy, busy }, steps.map(([conn, kind, at]) => ({ id: `${conn}-${kind}`, at, actor: 'db', kind, conn }))), open);

describe('SQLite lock rules of two connections to a WAL-mode database', () => {
  it('uncommitted writes are invisible to the other connection (deferred): B reads "none" while A holds pending work', () => {
    const t = race('deferred', [['A', 'begin', 0], ['A', 'read', 10], ['A', 'execute', 20], ['A', 'write', 30], ['B', 'begin', 35], ['B', 'read', 40], ['A', 'commit', 50]]);
    const at45 = ledgerStateAt(t, 45);
    expect(at45.conns.A.pending).toEqual(['execute', 'write']);
    expect(at45.tables.executions).toBe(0); // nothing committed yet
    expect(at45.conns.B.saw).toBe('none');
    expect(at45.writer).toBe('A');
    expect(ledgerStateAt(t, 50).tables.executions).toBe(1);
  });

  it('deferred: a read transaction whose snapshot is stale cannot write — SQLITE_BUSY_SNAPSHOT, rolled back', () => {
    const t = race('deferred', [['B', 'begin', 0], ['B', 'read', 5], ['A', 'begin', 10], ['A', 'read', 11], ['A', 'execute', 12], ['A', 'write', 13], ['A', 'commit', 14], ['B', 'execute', 20], ['B', 'write', 21], ['B', 'commit', 22]]);
    expect(t.outcome.summary).toMatchObject({ executions: 1, connA: 'executed', connB: 'busy' });
    // WAL: A's COMMIT at 14 goes through while B's read transaction (since 5) is still open — a
    // reader does not block a writer (in rollback-journal mode B's SHARED lock would hold it back).
    const at14 = ledgerStateAt(t, 14);
    expect(at14.conns.B.phase).toBe('tx');
    expect(at14.writer).toBeNull();
    expect(at14.tables.executions).toBe(1);
    expect(ledgerStateAt(t, 20).conns.B).toMatchObject({ phase: 'aborted', error: 'SQLITE_BUSY_SNAPSHOT', pending: [] });
    expect(t.steps.find((s) => s.entry.label === 'B-write')!.ignored[0].reason).toBe('its transaction was rolled back by SQLITE_BUSY');
  });

  it('deferred: upgrading while the other holds the write lock fails at once (no waiting, even with busy = wait)', () => {
    const t = race('deferred', [['A', 'begin', 0], ['B', 'begin', 1], ['A', 'read', 2], ['B', 'read', 3], ['A', 'execute', 4], ['B', 'execute', 5], ['A', 'write', 6], ['A', 'commit', 7]], 'wait');
    expect(ledgerStateAt(t, 5).conns.B).toMatchObject({ phase: 'aborted', error: 'SQLITE_BUSY', reply: 'busy' });
  });

  it('BEGIN IMMEDIATE: the second writer waits at begin and its held steps run at the first one\'s commit', () => {
    const t = race('immediate', [['A', 'begin', 0], ['B', 'begin', 1], ['B', 'read', 2], ['A', 'read', 3], ['A', 'execute', 4], ['A', 'write', 5], ['A', 'commit', 9], ['B', 'execute', 10], ['B', 'commit', 11]]);
    const at5 = ledgerStateAt(t, 5);
    expect(at5.conns.B).toMatchObject({ phase: 'waiting', backlog: ['begin', 'read'] });
    const at9 = ledgerStateAt(t, 9);
    expect(at9.writer).toBe('B');
    expect(at9.conns.B).toMatchObject({ phase: 'tx', saw: 'completed', reply: 'replayed' });
    expect(t.outcome.summary).toMatchObject({ executions: 1, connB: 'replayed' });
    expect(ledgerStateAt(t, 11).writer).toBeNull();
  });

  it('BEGIN IMMEDIATE with busy = error: the second BEGIN gets SQLITE_BUSY at once', () => {
    const t = race('immediate', [['A', 'begin', 0], ['B', 'begin', 1], ['A', 'read', 2], ['A', 'execute', 3], ['A', 'write', 4], ['A', 'commit', 5]], 'error');
    expect(ledgerStateAt(t, 1).conns.B).toMatchObject({ phase: 'aborted', error: 'SQLITE_BUSY' });
  });

  it('naive: the second INSERT of the record fails with the UNIQUE constraint after its charge already committed', () => {
    const t = race('naive', [['A', 'read', 0], ['B', 'read', 1], ['A', 'execute', 2], ['B', 'execute', 3], ['A', 'write', 4], ['B', 'write', 5]]);
    expect(t.outcome.summary).toMatchObject({ executions: 2, connA: 'executed', connB: 'constraint' });
    expect(ledgerStateAt(t, 5).conns.B.error).toBe('UNIQUE constraint failed: idempotency.key');
  });
});
