/**
 * The postmortem's failure-origin words for the races and ledger pages (views may not import
 * src/sim values, so they get them here). The rules are in `src/sim/retry/labOrigins.ts`.
 */
import { classifyRetry, FAILURE_ORIGIN_WORDS, type FailureOrigin, type RetryClassification } from '../sim/retry/classify';
import { ledgerErrorOrigin, racesFailureOrigin } from '../sim/retry/labOrigins';
import type { RequestOutcome } from '../sim/races/types';
import type { LedgerOutcome } from '../sim/ledger/model';

export { FAILURE_ORIGIN_WORDS, type FailureOrigin };

/** The origin word of a races request's terminal state ("user cancel", "client timeout", …), or null when it is none of the five. */
export function racesOriginWord(r: Pick<RequestOutcome, 'state' | 'isError'>): string | null {
  const o = racesFailureOrigin(r);
  return o === null ? null : FAILURE_ORIGIN_WORDS[o];
}

/** One failing ledger call as the "May it be retried?" panel shows it. */
export interface LedgerFailingCase {
  requestId: string | number;
  idempotencyKey: string | null;
  /** What the client saw: `timed-out` or `error`. */
  client: 'timed-out' | 'error';
  /** The classifier's answer for repeating it after that failure (its `failureOrigin` is the origin). */
  classification: RetryClassification;
  /** The origin's word, or null when the failure is none of the five (a tool error). */
  originWord: string | null;
}

/**
 * The calls of a ledger outcome that failed (timed out or answered with an error), each classified
 * with its origin (`ledgerErrorOrigin`): a charge has a side effect, so the key decides the rest.
 */
export function ledgerFailingCases(outcome: Pick<LedgerOutcome, 'calls'>): LedgerFailingCase[] {
  const out: LedgerFailingCase[] = [];
  for (const c of outcome.calls) {
    if (c.client !== 'timed-out' && c.client !== 'error') continue;
    const classification = classifyRetry({ sideEffect: true, idempotencyKey: c.idempotencyKey, origin: ledgerErrorOrigin(c) });
    out.push({
      requestId: c.requestId,
      idempotencyKey: c.idempotencyKey,
      client: c.client,
      classification,
      originWord: classification.failureOrigin === null ? null : FAILURE_ORIGIN_WORDS[classification.failureOrigin],
    });
  }
  return out;
}
