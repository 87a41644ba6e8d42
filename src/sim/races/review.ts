import type { LabReview } from '../lab';
import type { Json } from '../types';

/**
 * What the review report reads off a races run: its transport and revision, whether progress resets
 * the idle timeout, the first call's deadlines (the lab's client enforces both) and how many calls
 * carry a progress token.
 */
export const racesReview: LabReview = {
  infer(scenario, note) {
    const config = scenario.config as Record<string, Json>;
    note('transport.kind', config.transport as Json);
    note('transport.revision', config.revision as Json);
    note('progress.resetsIdle', config.progressResetsIdleTimeout as Json);
    const start = scenario.events.find((e) => e.kind === 'start');
    if (start) {
      if (start.idleTimeoutMs !== undefined) note('timeouts.idleTimeoutMs', start.idleTimeoutMs ?? null);
      if (start.maxTimeoutMs !== undefined) note('timeouts.maxTimeoutMs', start.maxTimeoutMs ?? null);
      note('timeouts.enforcedBy', "client (the lab's client enforces both deadlines)");
      const starts = scenario.events.filter((e) => e.kind === 'start');
      const withToken = starts.filter((e) => e.progressToken !== undefined && e.progressToken !== null).length;
      note('progress.token', withToken === starts.length ? 'always' : withToken === 0 ? 'never' : 'sometimes');
    }
  },
};
