/**
 * The postmortem's five failure origins (see `classify.ts`, `FailureOrigin`) read off the terminal
 * states of the races and ledger labs, so every lab names a failure with the same words.
 *
 * Pure: no clock, no randomness; every input gets an answer, nothing throws.
 */
import type { ClientState } from '../races/types';
import type { ClientStatus } from '../ledger/model';
import type { ChargeReply } from '../ledger/ledger';
import type { ErrorOrigin } from './classify';
import { failureOriginOf, type FailureOrigin } from './origins';

/**
 * The classifier's `ErrorOrigin` behind one races request's terminal state, or undefined when the
 * state is no failure (`pending`, `completed`, `ended-by-server`) or none the five cover:
 * - `cancelled` (the caller cancelled: `notifications/cancelled` or a stream close) → user cancel;
 * - `timeout-idle` / `timeout-max` (the client's idle or maximum timeout, SDK -32001) → client timeout;
 * - `connection-closed` (the response stream dropped, SDK -32000) → network issue;
 * - `failed` with `isError: true` → a tool error (the tool ran and reported a failure: none of the five);
 * - `failed` with a JSON-RPC error response → server overload (the postmortem's SERVER_OVERLOAD:
 *   the server answered but refused or failed the work; the races outcome keeps no error code);
 * - `rejected` (the client refused to start it: invalid id, nothing sent) → undefined.
 */
export function racesErrorOrigin(r: { state: ClientState; isError: boolean }): ErrorOrigin | undefined {
  switch (r.state) {
    case 'cancelled':
      return { kind: 'user-cancel' };
    case 'timeout-idle':
    case 'timeout-max':
      return { kind: 'client-timeout' };
    case 'connection-closed':
      return { kind: 'network' };
    case 'failed':
      return r.isError ? { kind: 'tool-error' } : { kind: 'server-overload' };
    case 'pending':
    case 'completed':
    case 'ended-by-server':
    case 'rejected':
      return undefined;
  }
}

/** Which of the five origins a races request's terminal state is (`racesErrorOrigin`, then `failureOriginOf`); null for none. */
export function racesFailureOrigin(r: { state: ClientState; isError: boolean }): FailureOrigin | null {
  return failureOriginOf(racesErrorOrigin(r));
}

/**
 * The classifier's `ErrorOrigin` behind one ledger call, or undefined when it did not fail
 * (`waiting`, `ok`): `timed-out` (the client's timeout fired; the server may still have charged)
 * → client timeout; `error` (409 idempotency_key_in_use, a key reused with other arguments, bad
 * arguments: all sent back as a tool result with `isError: true`) → a tool error, none of the five.
 */
export function ledgerErrorOrigin(call: { client: ClientStatus; reply?: ChargeReply['kind'] | null }): ErrorOrigin | undefined {
  switch (call.client) {
    case 'timed-out':
      return { kind: 'client-timeout' };
    case 'error':
      return { kind: 'tool-error' };
    case 'waiting':
    case 'ok':
      return undefined;
  }
}
