import { teach, type Call, type CheckModule } from './core';

/** The calls of one tool and arguments (`sig`): those that may still run, and the overlaps seen. */
interface Group {
  sig: string;
  running: Call[];
  overlaps: { a: Call; b: Call }[];
}

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
    /**
     * Per tool and arguments: the calls that may still run (no response yet), and each overlap seen
     * — a call `b` sent while an earlier `a` (another id) had no response. An overlap whose `a` is
     * answered later in the file but at the same millisecond as `b` does not count (it had ended
     * when `b` started), so overlaps are judged once the run is over, from `a`'s response.
     */
    const groups = new Map<string, Group>();
    /** The group of each call not yet answered (so a response finds its group without building the signature again). */
    const groupOf = new Map<Call, Group>();
    return {
      visit(_e, _m, o) {
        if (o.kind === 'request') {
          const b = o.call;
          if (b.direction !== 'c2s' || b.tool === null) return;
          const sig = `${b.tool}\u0000${b.argsCanonical}`;
          let g = groups.get(sig);
          if (!g) groups.set(sig, (g = { sig, running: [], overlaps: [] }));
          // The calls answered since drop out (in place), then every one still running overlaps b.
          let kept = 0;
          for (const a of g.running) if (a.response === null) g.running[kept++] = a;
          g.running.length = kept;
          for (const a of g.running) if (a.idKey !== b.idKey) g.overlaps.push({ a, b });
          g.running.push(b);
          groupOf.set(b, g);
          return;
        }
        if (o.kind !== 'response' || !o.call || o.call.response !== null || o.call.tool === null || o.call.direction !== 'c2s') return;
        // Its group forgets it once nothing else in it needs it.
        const call = o.call;
        const g = groupOf.get(call);
        if (!g) return;
        groupOf.delete(call);
        if (g.overlaps.length === 0 && g.running.every((c) => c === call || c.response !== null)) groups.delete(g.sig);
      },
      finish(ctx) {
        for (const { overlaps } of groups.values()) {
          const inGroup = new Set<Call>();
          for (const { a, b } of overlaps) {
            if (a.response !== null && a.response.atMs <= b.entry.atMs) continue;
            inGroup.add(a);
            inGroup.add(b);
          }
          if (inGroup.size === 0) continue;
          const overlapping = [...inGroup].sort((x, y) => x.entry.index - y.entry.index);
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
