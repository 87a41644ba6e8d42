import { ruleTable, type RuleEntry } from '../ruleTable';
import MECHANICS_RULE_DATA from './rules.json';

/** The rules the failure mechanics cite (issue 11): the spec sentence they break and the incident (data: `rules.json`). */
export const MECHANICS_RULES = ruleTable(MECHANICS_RULE_DATA as Record<string, RuleEntry>);
