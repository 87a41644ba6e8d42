import type { Revision } from '../mcp';
import { ruleTable, type Rule, type RuleEntry } from './ruleTable';
import { SDK_RULES } from './sdkProfile';
import { MECHANICS_RULES } from './mechanics/rules';
import RULE_DATA from './rules.json';

export type { Rule, RuleEntry } from './ruleTable';

/**
 * Every rule the races model cites, keyed by id: the model's own (`rules.json`), the TypeScript
 * SDK v1 behaviours (`sdkProfile.ts`) and the failure mechanics' (`mechanics/rules.json`).
 * Notes on the data: 2026-07-28 moved progress under `basic/patterns/progress` (was
 * `basic/utilities/progress`); the MUST NOT of `cancel.receiver-stops` is on the transport pages
 * (Cancellation sections), while `basic/patterns/cancellation` keeps "Not send a response for the
 * cancelled request" under a SHOULD; the MUST of `disconnect.2026` is in the changelog (major item
 * 9), the transport page says only "Resumable SSE streams via Last-Event-ID are not supported."
 */
export const RULES: Record<string, Rule> = {
  ...ruleTable(RULE_DATA as Record<string, RuleEntry>),
  ...SDK_RULES,
  ...MECHANICS_RULES,
};

/** The spec section of a rule for a revision, as text (empty when the rule has none for it). */
export function ruleSection(rule: Rule, revision: Revision): string {
  if (typeof rule.section === 'string') return rule.section;
  return rule.section[revision] ?? '';
}
