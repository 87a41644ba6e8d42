import type { LabReview } from '../lab';

/** What the review report reads off a ledger run: its calls as one side-effecting tool, and whether each carries an idempotency key. */
export const ledgerReview: LabReview = {
  infer(scenario, note) {
    const calls = scenario.events.filter((e) => e.kind === 'call');
    if (calls.length === 0) return;
    const keyed = calls.filter((e) => typeof e.key === 'string' && e.key !== '').length;
    const tool = { name: 'charge', sideEffect: true, idempotencyKey: keyed === calls.length ? 'required' : keyed === 0 ? 'none' : 'optional' };
    note('operation.tools', [tool]);
  },
};
