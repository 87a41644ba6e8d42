/// <reference lib="webworker" />
import { loadSqlJs } from '../../db/browser';
import { memoryOpener } from '../../db/sqljs';
import { createLedgerTrieExplorer, withLedgerOverrides } from '../../sim/ledger';
import type { Json, Scenario } from '../../sim/types';
import type { ExploreReply, ExploreRequest } from './exploreProtocol';

/**
 * Explores every interleaving of the two connections' steps under each requested policy, off the
 * main thread. Posts progress every few replays; the page cancels by terminating the worker.
 */
const ctx = self as unknown as DedicatedWorkerGlobalScope;

ctx.onmessage = async (message: MessageEvent<ExploreRequest>) => {
  const { scenario, variants } = message.data;
  const post = (reply: ExploreReply) => ctx.postMessage(reply);
  try {
    const SQL = await loadSqlJs();
    const open = memoryOpener(SQL);
    // Orders share their prefixes (a trie with an undo log): the same groups as replaying each order from scratch.
    const trie = createLedgerTrieExplorer(open);
    const movable = scenario.events.filter((e) => e.actor === 'db').map((e) => e.id);
    let base = 0;
    for (const variant of variants) {
      const s: Scenario = withLedgerOverrides(scenario, variant.overrides as Record<string, Json>);
      const started = performance.now();
      const result = trie.explore(
        {
          scenario: s,
          movable,
          classify: (o) => `${o.summary.executions} execution${o.summary.executions === 1 ? '' : 's'} · A ${o.summary.connA} · B ${o.summary.connB}`,
        },
        {
          onProgress(done, total) {
            if (done % 6 === 0 || done === total) post({ type: 'progress', done: base + done, total: total * variants.length });
          },
        },
      );
      base += result.total;
      post({
        type: 'result',
        variant: variant.id,
        total: result.total,
        elapsedMs: Math.round(performance.now() - started),
        groups: result.groups.map((g) => ({ key: g.key, count: g.count, order: g.example.order, switches: g.example.switches, executions: g.outcome.summary.executions })),
      });
    }
    post({ type: 'done' });
  } catch (err) {
    post({ type: 'error', message: (err as Error).message });
  }
};
