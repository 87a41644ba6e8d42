import type { LabReview } from '../lab';
import type { Json } from '../types';

const isObj = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** What the review report reads off a resilience run: for the tasks mechanism, that tasks are used, how a task is cancelled, the revision. */
export const resilienceReview: LabReview = {
  infer(scenario, note) {
    const config = scenario.config as Record<string, Json>;
    if (config.mechanism !== 'tasks') return;
    note('tasks.used', true);
    note('tasks.cancelWith', isObj(config.policy) && config.policy.cancelWithNotification === true ? 'notifications/cancelled' : 'tasks/cancel');
    note('transport.revision', config.revision as Json);
  },
};
