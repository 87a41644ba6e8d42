import type { Invariant, ScriptedEvent } from '../types';
import { usableKey, type ChargeReply } from './ledger';
import type { LedgerOutcome, LedgerState } from './state';

/** The outcome of a state: summary counts and each call's end. */
export function ledgerOutcome(state: LedgerState): LedgerOutcome {
  const t = state.tables;
  const count = (k: ChargeReply['kind']) => state.calls.filter((c) => c.reply?.kind === k).length;
  return {
    summary: {
      executions: t.executions,
      charges: t.charges.length,
      records: t.idempotency.length,
      receipts: t.charges.map((r) => String(r.receipt)),
      replayed: count('replayed') + Object.values(state.conns).filter((c) => c.reply === 'replayed').length,
      inUse: count('in-use') + Object.values(state.conns).filter((c) => c.reply === 'in-use').length,
      mismatches: count('mismatch'),
      invalid: count('invalid'),
      timedOut: state.calls.filter((c) => c.client === 'timed-out').length,
      doubleExecuted: Object.values(state.executions).filter((n) => n > 1).length,
      inUseRetries: state.calls.filter((c) => c.inUseRetries > 0).length,
      gaveUpOnInUse: state.calls.filter((c) => c.gaveUpOnInUse).length,
      keysDropped: state.calls.filter((c) => usableKey(c.idempotencyKey) && c.upstreamKey === null).length,
      connA: state.conns.A.reply,
      connB: state.conns.B.reply,
    },
    calls: state.calls.map((c) => ({
      key: c.key,
      requestId: c.requestId,
      idempotencyKey: c.idempotencyKey,
      client: c.client,
      reply: c.reply?.kind ?? null,
      receipt: c.reply && (c.reply.kind === 'executed' || c.reply.kind === 'replayed') ? c.reply.result.receipt : null,
      resultRequestId: c.reply && (c.reply.kind === 'executed' || c.reply.kind === 'replayed') ? c.reply.result.requestId : null,
    })),
  };
}

/** Invariants checked after every step (they stay on under broken policies, which must break them). */
export const LEDGER_INVARIANTS: Invariant<LedgerState>[] = [
  {
    name: 'at-most-once',
    description: 'No operation (one idempotency key, or one call and its retries) executes more than once.',
    check: (s) => {
      const twice = Object.entries(s.executions).filter(([, n]) => n > 1);
      return twice.length ? twice.map(([op, n]) => `operation ${op} executed ${n} times`).join('; ') : null;
    },
  },
  {
    name: 'counter-matches-charges',
    description: 'The execution counter equals the number of charge rows (each execution is one atomic change).',
    check: (s) => (s.tables.executions === s.tables.charges.length ? null : `counter ${s.tables.executions} ≠ ${s.tables.charges.length} charges`),
  },
  {
    name: 'in-progress-is-not-final',
    description:
      'A 409 idempotency_key_in_use ("in progress": the first execution is still running) is not the call\'s final answer: the client waits and retries with the same key, and after the commit gets the stored result (Stripe\'s idempotency_key_in_use).',
    check: (s) => {
      const gave = s.calls.filter((c) => c.gaveUpOnInUse);
      return gave.length ? gave.map((c) => `request ${c.key} stopped at 409 for key "${c.idempotencyKey}"`).join('; ') : null;
    },
  },
  {
    name: 'key-reaches-upstream',
    description: 'An idempotency key the client sends reaches the upstream that deduplicates; a tool layer that drops it turns every repeat into a new execution (agentmail-mcp#49).',
    check: (s) => {
      const dropped = s.calls.filter((c) => usableKey(c.idempotencyKey) && c.upstreamKey === null);
      return dropped.length ? dropped.map((c) => `request ${c.key}: key "${c.idempotencyKey}" dropped before the upstream`).join('; ') : null;
    },
  },
];

/** Lane order of a scripted event, for the explorer: calls by client, steps by connection. */
export function ledgerLaneOf(event: ScriptedEvent): string {
  return event.actor === 'db' ? `conn ${String(event.conn)}` : event.actor;
}
