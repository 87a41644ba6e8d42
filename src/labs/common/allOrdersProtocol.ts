import type { LabId } from '../../sim/labIds';
import type { Scenario } from '../../sim/types';

/**
 * Messages between the "All orders" panel and its worker (`allOrders.worker.ts`). Types only.
 * `events: null` asks the worker to use the lab's natural set (the reply says which it used).
 */
export interface AllOrdersRequest {
  lab: LabId;
  scenario: Scenario;
  events: string[] | null;
  /** Skip orders equivalent to one already run (events that commute), where the lab can tell. Default true; the bench sends false. */
  prune?: boolean;
}

/** One outcome class as the panel shows it; `scenario` is its shortest counterexample, ready to open. */
export interface AllOrdersClass {
  key: string;
  count: number;
  example: string[];
  inversions: number;
  broken: string[];
  scenario: Scenario;
}

export type AllOrdersReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; events: string[]; total: number; evaluated: number; rejected: number; pruned: number; cancelled: boolean; classes: AllOrdersClass[] }
  | { type: 'error'; message: string };
