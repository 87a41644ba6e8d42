import type { Json, Scenario } from '../../sim/types';

/** A policy setting explored as one row of the outcome map. */
export interface ExploreVariant {
  id: string;
  label: string;
  overrides: Record<string, Json>;
}

export interface ExploreRequest {
  scenario: Scenario;
  variants: ExploreVariant[];
}

export interface ExploreGroup {
  key: string;
  count: number;
  /** The simplest ordering of this group (fewest lane switches). */
  order: string[];
  switches: number;
  executions: number;
}

export type ExploreReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; variant: string; total: number; elapsedMs: number; groups: ExploreGroup[] }
  | { type: 'done' }
  | { type: 'error'; message: string };

/** The rows of the outcome map. */
export const EXPLORE_VARIANTS: ExploreVariant[] = [
  { id: 'naive', label: 'naive check-then-act', overrides: { policy: 'naive' } },
  { id: 'deferred', label: 'deferred BEGIN', overrides: { policy: 'deferred', busy: 'wait' } },
  { id: 'immediate-wait', label: 'BEGIN IMMEDIATE (wait)', overrides: { policy: 'immediate', busy: 'wait' } },
  { id: 'immediate-error', label: 'BEGIN IMMEDIATE (busy = error)', overrides: { policy: 'immediate', busy: 'error' } },
  { id: 'claim', label: 'INSERT … ON CONFLICT … RETURNING', overrides: { policy: 'claim' } },
];
