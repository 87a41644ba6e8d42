import type { Revision } from '../mcp';

/**
 * A rule the races lab cites: what it says and where, per revision. `section` is the path under
 * `docs/specification/<revision>/` in modelcontextprotocol/modelcontextprotocol, or the
 * reference the rule comes from (TypeScript SDK, lesson).
 */
export interface Rule {
  id: string;
  text: string;
  section: Partial<Record<Revision, string>> | string;
}

/** A rule as written in a rules data file: the id is its key. */
export type RuleEntry = Omit<Rule, 'id'>;

/**
 * The rule table of a data file (`rules.json`, `mechanics/rules.json`): each entry keyed by its id,
 * which is written once (as the key) and filled in here. Throws `rules.<id>.text` / `.section`
 * when an entry lacks its text or its section (every rule says where it comes from).
 */
export function ruleTable(entries: Record<string, RuleEntry>): Record<string, Rule> {
  const table: Record<string, Rule> = {};
  for (const [id, { text, section }] of Object.entries(entries)) {
    if (typeof text !== 'string' || text === '') throw new Error(`rules.${id}.text: missing — every rule says what it requires`);
    const empty = typeof section === 'string' ? section === '' : Object.keys(section).length === 0;
    if (empty) throw new Error(`rules.${id}.section: missing — name the spec page (or the reference) the rule comes from`);
    table[id] = { id, text, section };
  }
  return table;
}
