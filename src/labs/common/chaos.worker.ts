/// <reference lib="webworker" />
// A Web Worker entry file: it runs the engine, so it is the one kind of file in src/labs that may
// import values from src/sim (the layering lint exempts *.worker.ts).
import { describeFault } from '../../sim/chaos/faults';
import { readChaosParam } from '../../sim/chaos/link';
import { faultedScenario, runSeed } from '../../sim/chaos/swarm';
import { labOpener } from '../../db/sqljs';
import type { ChaosReply, ChaosRequest, ChaosSeedRow } from './chaosProtocol';

/**
 * The seeded chaos swarm off the main thread (issue 13 item 6, docs/chaos.md): each seed's faults
 * (each lab's `LabDefinition.chaos`, src/sim/<lab>/chaos.ts) applied to the scenario, replayed, its safety invariants and liveness
 * checks read; progress every 10 seeds. `open` rebuilds one seed's faulted scenario. The page
 * cancels by terminating the worker. The ledger loads sql.js here (its replays run real SQL).
 */
const ctx = self as unknown as DedicatedWorkerGlobalScope;

ctx.onmessage = async (message: MessageEvent<ChaosRequest>) => {
  const req = message.data;
  const post = (reply: ChaosReply) => ctx.postMessage(reply);
  try {
    if (req.type === 'open' || req.type === 'open-link') {
      let seed: number;
      if (req.type === 'open-link') {
        const p = readChaosParam(req.query);
        if (p === null) return post({ type: 'none' });
        if (typeof p === 'object') return post({ type: 'error', message: `${p.error} — the scenario is shown without faults` });
        seed = p;
      } else seed = req.seed;
      const f = faultedScenario(req.scenario, seed);
      post({ type: 'opened', seed, scenario: f.scenario, faults: f.faults.map(describeFault) });
      return;
    }
    const open = await labOpener(req.lab, async () => (await import('../../db/browser')).loadSqlJs());
    const rows: ChaosSeedRow[] = [];
    const safety: Record<string, number> = {};
    const liveness: Record<string, number> = {};
    let smallest: number | null = null;
    for (let i = 0; i < req.seeds; i++) {
      const seed = (req.firstSeed + i) >>> 0;
      const r = runSeed(req.scenario, seed, { open });
      rows.push({ seed, violated: r.violated, liveness: r.liveness, faults: r.faults.map(describeFault) });
      for (const v of r.violated) safety[v] = (safety[v] ?? 0) + 1;
      for (const v of r.liveness) liveness[v] = (liveness[v] ?? 0) + 1;
      if (r.violated.length > 0 && (smallest === null || seed < smallest)) smallest = seed;
      if ((i + 1) % 10 === 0) post({ type: 'progress', done: i + 1, total: req.seeds });
    }
    post({
      type: 'result',
      seedsRun: rows.length,
      rows,
      smallestFailingSeed: smallest,
      safetyFailingSeeds: rows.filter((r) => r.violated.length > 0).length,
      livenessFailingSeeds: rows.filter((r) => r.liveness.length > 0).length,
      safety,
      liveness,
    });
  } catch (err) {
    post({ type: 'error', message: (err as Error).message });
  }
};
