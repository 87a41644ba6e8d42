import { RULES, ruleSection } from '../../store/racesStore';
import type { Revision } from '../../sim/mcp';

/** A rule citation: its id, what it says and where (spec section for the revision), as text. */
export function RuleRef({ rule, revision, compact = false }: { rule: string | undefined; revision: Revision; compact?: boolean }) {
  if (!rule) return null;
  const r = RULES[rule];
  if (!r) return <code className="rule-id">{rule}</code>;
  const section = ruleSection(r, revision);
  if (compact) {
    return (
      <code className="rule-id" title={`${r.text}${section ? ` — ${section}` : ''}`}>
        {rule}
      </code>
    );
  }
  return (
    <span className="rule">
      <code className="rule-id">{rule}</code> <span className="rule-text">{r.text}</span>
      {section && (
        <span className="rule-section">
          {' '}
          ({section.startsWith('lesson') ? section : `spec ${revision}: ${section}`})
        </span>
      )}
    </span>
  );
}
