import type { ErrorOrigin } from './classify';

/*
 * The postmortem's five failure origins and their words, apart from the retry classifier
 * (`./classify`, which re-exports them): a page that only names an origin does not load the classifier.
 */

/**
 * The postmortem's five error origins (`class ErrorOrigin(Enum)`, USER_CANCEL = 1 …
 * PARTIAL_SUCCESS = 5), spelled as the lab spells them.
 */
export type FailureOrigin = 'user-cancel' | 'client-timeout' | 'server-overload' | 'network' | 'partial-success';

/** All five, in the postmortem's order. */
export const FAILURE_ORIGINS: readonly FailureOrigin[] = ['user-cancel', 'client-timeout', 'server-overload', 'network', 'partial-success'];

/** The words every lab shows for the five origins (the postmortem's comments, in English). */
export const FAILURE_ORIGIN_WORDS: Readonly<Record<FailureOrigin, string>> = {
  'user-cancel': 'user cancel',
  'client-timeout': 'client timeout',
  'server-overload': 'server overload',
  network: 'network issue',
  'partial-success': 'partial success (stream)',
};

/**
 * Which of the postmortem's five origins `origin` is: user-cancel and client-timeout as given (the
 * SDK's -32001 request timeout is a client timeout); server-overload for `server-overload` and HTTP
 * 429 / 503; network for a network error, HTTP 502 / 504 (a gateway that lost or timed out its
 * upstream) and the SDK's -32000 connection closed; partial-success for a broken stream. Anything
 * else (4xx, 500, other JSON-RPC errors, `isError` results) is none of the five: null.
 */
export function failureOriginOf(origin: ErrorOrigin | undefined): FailureOrigin | null {
  if (origin === undefined) return null;
  switch (origin.kind) {
    case 'user-cancel':
    case 'client-timeout':
    case 'server-overload':
    case 'network':
      return origin.kind;
    case 'partial-success':
    case 'partial-stream':
      return 'partial-success';
    case 'http':
      return origin.status === 429 || origin.status === 503 ? 'server-overload' : origin.status === 502 || origin.status === 504 ? 'network' : null;
    case 'jsonrpc':
      return origin.code === -32001 ? 'client-timeout' : origin.code === -32000 ? 'network' : null;
    case 'tool-error':
      return null;
  }
}
