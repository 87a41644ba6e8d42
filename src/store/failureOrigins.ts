/**
 * The postmortem's failure-origin words for the races and ledger pages (views may not import
 * src/sim values, so they get them here). The rules are in `src/sim/retry/labOrigins.ts`; the
 * ledger's classified cases are in `./ledgerFailingCases` (the retry classifier stays out of the
 * races page's first load).
 */
import { FAILURE_ORIGIN_WORDS, type FailureOrigin } from '../sim/retry/origins';
import { racesFailureOrigin } from '../sim/retry/labOrigins';
import type { RequestOutcome } from '../sim/races/types';

export { FAILURE_ORIGIN_WORDS, type FailureOrigin };

/** The origin word of a races request's terminal state ("user cancel", "client timeout", …), or null when it is none of the five. */
export function racesOriginWord(r: Pick<RequestOutcome, 'state' | 'isError'>): string | null {
  const o = racesFailureOrigin(r);
  return o === null ? null : FAILURE_ORIGIN_WORDS[o];
}
