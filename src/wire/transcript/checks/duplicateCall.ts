import { teach, type Call, type CheckModule } from './core';

/**
 * The same tools/call (tool and canonical arguments) under a new id while an earlier one may still
 * run: possible double execution (ledger lab). Info when every such call carries an idempotency key.
 */
export const duplicateCall: CheckModule = {
  def: {
    id: 'duplicate-call',
    title: 'The same tools/call under a new id while the first may still run (possible double execution)',
    rule: 'idempotency.key',
    ruleText: 'A new JSON-RPC id is not deduplication: a retried or re-dispatched mutation runs again unless the server deduplicates it by an idempotency key.',
    severity: 'warning',
    teaches: teach('ledger', 'C-no-key-retries'),
  },
  create() {
    return {
      finish(ctx) {
        const groups = new Map<string, Call[]>();
        for (const call of ctx.index.calls) {
          if (call.direction !== 'c2s' || call.tool === null) continue;
          const sig = `${call.tool}\u0000${call.argsCanonical}`;
          const group = groups.get(sig);
          if (group) group.push(call);
          else groups.set(sig, [call]);
        }
        for (const group of groups.values()) {
          if (group.length < 2) continue;
          // Earlier calls that may still run when the next one starts (no response yet); pruned as responses come in.
          let running: Call[] = [];
          const inGroup = new Set<Call>();
          for (const b of group) {
            running = running.filter((a) => a.response === null || a.response.atMs > b.entry.atMs);
            const others = running.filter((a) => a.idKey !== b.idKey);
            if (others.length > 0) {
              for (const a of others) inGroup.add(a);
              inGroup.add(b);
            }
            running.push(b);
          }
          const overlapping = group.filter((c) => inGroup.has(c));
          if (overlapping.length === 0) continue;
          const keyed = overlapping.every((c) => c.hasIdempotencyKey);
          const someKeyed = overlapping.some((c) => c.hasIdempotencyKey);
          const ids = overlapping.map((c) => c.id);
          ctx.add(
            'duplicate-call',
            `${overlapping.length} tools/call "${overlapping[0].tool}" with the same arguments under ids ${ids.map((id) => JSON.stringify(id)).join(', ')}, each sent while an earlier one had no response: possible double execution. ${keyed ? 'Every call carries an idempotency key, so the server can deduplicate — check that it does.' : someKeyed ? 'Only some carry an idempotency key.' : 'No idempotency key is present.'}`,
            overlapping.map((c) => c.entry),
            ids,
            keyed ? 'info' : 'warning',
            overlapping[1].entry,
          );
        }
      },
    };
  },
};
