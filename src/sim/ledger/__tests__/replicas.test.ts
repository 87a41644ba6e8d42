import { beforeAll, describe, expect, it } from 'vitest';
import { runReplicaLedger, lostResponseRetry } from '../../seeds/replicaLedger';
import { REPLICA_INVARIANT, runReplicaLedgerOnSql, type OpenDatabase } from '..';
import { opener } from './helpers';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

describe('an in-memory ledger across two replicas or a restart, on real SQLite (issue 13 item 8)', () => {
  it('the retry lands on replica B: the process-local ledger executes checkout-7 twice, the shared SQLite ledger once', () => {
    const local = runReplicaLedgerOnSql('process-local', open, 'other-replica');
    expect(local.calls.map((c) => `${c.replica}:${c.reply}:${c.receipt}`)).toEqual(['A:executed:charge-001', 'B:executed:charge-001']);
    expect(local.executionsByKey).toEqual({ 'checkout-7': 2 });
    expect(local.violation).toBe('key checkout-7 executed 2 times');
    const shared = runReplicaLedgerOnSql('shared', open, 'other-replica');
    expect(shared.calls.map((c) => `${c.replica}:${c.reply}:${c.receipt}`)).toEqual(['A:executed:charge-001', 'B:replayed:charge-001']);
    expect(shared.executionsByKey).toEqual({ 'checkout-7': 1 });
    expect(shared.violation).toBeNull();
    expect(REPLICA_INVARIANT).toBe('at-most-one-execution-per-key');
  });

  it('replica A restarts mid-run: process-local forgets its commit and executes again (2), shared remembers (1)', () => {
    const local = runReplicaLedgerOnSql('process-local', open, 'restart');
    expect(local.steps.map((s) => `${s.kind}:${s.replica}`)).toEqual(['call:A', 'restart:A', 'call:A']);
    expect(local.calls.map((c) => `${c.replica}:${c.reply}`)).toEqual(['A:executed', 'A:executed']);
    expect(local.executionsByKey).toEqual({ 'checkout-7': 2 });
    const shared = runReplicaLedgerOnSql('shared', open, 'restart');
    expect(shared.calls.map((c) => `${c.replica}:${c.reply}`)).toEqual(['A:executed', 'A:replayed']);
    expect(shared.executionsByKey).toEqual({ 'checkout-7': 1 });
  });

  it('agrees with the pure seed model on executions per key, for three alternating retries and for restarts', () => {
    for (const steps of [lostResponseRetry({ restart: false, retries: 3 }), lostResponseRetry({ restart: true, retries: 2 })]) {
      for (const placement of ['process-local', 'shared'] as const) {
        expect(runReplicaLedgerOnSql(placement, open, 'other-replica', steps).executionsByKey).toEqual(runReplicaLedger(placement, steps).executionsByKey);
      }
    }
    // B, A, B after A: one execution per replica (2) when process-local; a restart every retry: 3 executions.
    expect(runReplicaLedgerOnSql('process-local', open, 'other-replica', lostResponseRetry({ restart: false, retries: 3 })).executionsByKey).toEqual({ 'checkout-7': 2 });
    expect(runReplicaLedgerOnSql('process-local', open, 'restart', lostResponseRetry({ restart: true, retries: 2 })).executionsByKey).toEqual({ 'checkout-7': 3 });
  });

  it('refuses a step whose args are not JSON, naming the field', () => {
    expect(() => runReplicaLedgerOnSql('shared', open, 'other-replica', [{ kind: 'call', replica: 'A', key: 'k', args: 'cents=5' }])).toThrow('steps[0].args: "cents=5" is not JSON — give {"account": …, "cents": …}');
  });
});
