/// <reference lib="webworker" />
// A Web Worker entry file: it runs the engine, so it is the one kind of file in src/labs that may
// import values from src/sim (the layering lint exempts *.worker.ts).
import { exploreLabOrders, naturalOrderEvents, scenarioOfOrder } from '../../sim/labOrders';
import { LAB_DEFINITIONS } from '../../sim/labs';
import { labOpener } from '../../db/sqljs';
import type { AllOrdersReply, AllOrdersRequest } from './allOrdersProtocol';

/**
 * "All orders" off the main thread: every order of the selected events (or the lab's natural set)
 * through the lab's definition (`exploreLabOrders`), posting progress as it goes, then the classes
 * each with its shortest counterexample as a scenario. The page cancels by terminating the worker.
 * The ledger loads sql.js here (its replays run real SQL).
 */
const ctx = self as unknown as DedicatedWorkerGlobalScope;

ctx.onmessage = async (message: MessageEvent<AllOrdersRequest>) => {
  const { lab, scenario, events, prune } = message.data;
  const post = (reply: AllOrdersReply) => ctx.postMessage(reply);
  try {
    const definition = LAB_DEFINITIONS[lab]({ open: await labOpener(lab, async () => (await import('../../db/browser')).loadSqlJs()) });
    const selected = events ?? naturalOrderEvents(definition, scenario);
    const r = exploreLabOrders(definition, scenario, selected, { onProgress: (done, total) => post({ type: 'progress', done, total }), prune });
    post({
      type: 'result',
      events: selected,
      total: r.total,
      evaluated: r.evaluated,
      rejected: r.rejected,
      pruned: r.pruned,
      cancelled: r.cancelled,
      classes: r.classes.map((c) => ({ key: c.key, count: c.count, example: c.example, inversions: c.inversions, broken: c.broken, scenario: scenarioOfOrder(scenario, c.example) })),
    });
  } catch (err) {
    post({ type: 'error', message: (err as Error).message });
  }
};
