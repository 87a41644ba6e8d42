import { stateAtStep, type LabDefinition } from '../lab';
import { parserFor } from '../modelLab';
import { checkLedgerExpectation, replayLedger, type LedgerTrace } from './index';
import { laneKindProblem } from './lanes';
import { createLedgerModel, LEDGER_INVARIANTS, LEDGER_TIE_RULE, ledgerLaneOf, ledgerOutcome, type LedgerOutcome, type LedgerState } from './model';
import { ledgerConfigSchema, ledgerEventSchema, ledgerLengthProblem } from './schema';
import type { OpenDatabase } from './sql';
import { ledgerChaos } from './chaos';
import { ledgerReview } from './review';

const schemas = { config: ledgerConfigSchema, event: ledgerEventSchema };

/**
 * The ledger lab's contract over databases from `open` (sql.js: load it first; each replay is then
 * synchronous and deterministic). One model instance per definition: each replay reuses (empties)
 * the same database. Files and links must keep each connection's steps in lane order and hold at
 * most 300 events (each step runs real SQL).
 *
 * The replay runs on the checkpointed core like every lab's (`LedgerModel.core`), in its fast
 * path (`keep: 'effects'`) and full-trace (`keep: 'steps'`) modes. There is no `seekable`: the
 * ledger's truth is the rows in SQLite, which a core checkpoint does not hold, and copying the
 * database at every checkpoint would cost more than the full trace of a ≤ 300-event file (each
 * step already keeps its tables snapshot for the views). The order explorer restores SQLite
 * through its own undo log instead (`trie.ts`).
 */
export function createLedgerDefinition(open: OpenDatabase): LabDefinition<LedgerState, LedgerOutcome, LedgerTrace> & { open: OpenDatabase } {
  const model = createLedgerModel(open);
  return {
    id: 'ledger',
    title: 'Ledger',
    open,
    chaos: ledgerChaos,
    review: ledgerReview,
    schemas,
    tieRule: LEDGER_TIE_RULE,
    invariants: LEDGER_INVARIANTS.map(({ name, description }) => ({ name, description })),
    parse: parserFor('ledger', schemas, (s) => ledgerLengthProblem(s.events), laneKindProblem),
    replay: (scenario, options) => replayLedger(scenario, open, { ...options, model }),
    stateAt: stateAtStep,
    outcomeAt: (trace, atMs) => ledgerOutcome(stateAtStep(trace, atMs)),
    checkExpectation: checkLedgerExpectation,
    explore: {
      movable: (scenario) => scenario.events.filter((e) => e.actor === 'db').map((e) => e.id),
      laneOf: ledgerLaneOf,
      classify: (o) => `${o.summary.executions} execution${o.summary.executions === 1 ? '' : 's'} · A ${o.summary.connA} · B ${o.summary.connB}`,
    },
  };
}
