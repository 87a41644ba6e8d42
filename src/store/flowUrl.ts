import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import type { Scenario } from '../sim/types';
import { decodeLabHash, encodeLabHash, type DecodedLabHash } from './labUrl';

/**
 * The flow lab's address (see `labUrl.ts`): `#/flow/<id>` for a built-in as shipped,
 * `#/flow?scenario=<base64url JSON>` once edited. Decoding never throws.
 */
export function encodeFlowHash(scenario: Scenario, builtins: readonly Scenario[]): string {
  return encodeLabHash('flow', scenario, builtins);
}

export type DecodedFlowHash = DecodedLabHash;

/** Reads a `#/flow…` hash: the scenario it names (null: none named), or the problems. */
export function decodeFlowHash(hash: string, builtins: readonly Scenario[]): DecodedFlowHash {
  return decodeLabHash('flow', hash, builtins, (value) => parseScenario(value, 'flow', LAB_SCHEMAS.flow));
}
