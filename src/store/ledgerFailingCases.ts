/**
 * The ledger's failing calls, each classified for a repeat (the "May it be retried?" panel; views
 * may not import src/sim values, so they get them here).
 */
import { classifyRetry, FAILURE_ORIGIN_WORDS, type RetryClassification } from '../sim/retry/classify';
import { ledgerErrorOrigin } from '../sim/retry/labOrigins';
import type { LedgerOutcome } from '../sim/ledger/model';

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
