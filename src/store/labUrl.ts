import type { ParseResult } from '../sim/scenario';
import type { Scenario } from '../sim/types';
import { decodeLink, encodeLink } from './labLink';

/**
 * The older two-function form of a lab's address (kept for the ledger, flow and resilience URL
 * modules and their tests); both go through the one codec in `labLink.ts`. Parameters a link
 * carries that the page ignores come back in `warnings`.
 */

/** What a lab address resolves to: a scenario, none named (`#/<lab>` or another page), or the problems. */
export type DecodedLabHash = { ok: true; scenario: Scenario | null; warnings?: string[] } | { ok: false; errors: string[] };

/** The address that reproduces `scenario` in lab `lab`. */
export function encodeLabHash(lab: string, scenario: Scenario, builtins: readonly Scenario[]): string {
  return encodeLink(lab, scenario, builtins);
}

/** Reads an address of lab `lab` (see `decodeLink`); `parse` validates the scenario. Never throws. */
export function decodeLabHash(lab: string, hash: string, builtins: readonly Scenario[], parse: (value: unknown) => ParseResult): DecodedLabHash {
  const d = decodeLink(lab, hash, builtins, parse);
  if (d.kind === 'none') return { ok: true, scenario: null };
  if (d.kind === 'bad') return { ok: false, errors: d.errors };
  return { ok: true, scenario: d.scenario, warnings: d.warnings };
}
