import { useMemo, useState } from 'react';
import { formatMs } from '../../charts/format';
import { checklistForScenario, incidentClientLints, type ChecklistFinding } from '../../store/resilienceSeeds';
import { useR } from './context';
import { NumberField, Badge } from './seedKit';

/** The resilience lab's seed panel for issue 13 item 4: the production checklist as lints over the loaded scenario. */

/** The checklist items in English (the postmortem's words are in each row's title). */
const RULE_WORDS: Record<ChecklistFinding['rule'], string> = {
  'initial-timeout-floor': 'initial timeout ≥ historical p99 × 1.5',
  'absolute-cap': 'absolute cap ≤ 30 s (the user-experience red line)',
  'stream-chunk-timeout': 'a stream has a chunk timeout, checked every 100 ms',
  'distinct-retry-timeout': 'first request and retries have different timeouts',
  'max-retries': 'at most 2 retries (3 for critical work)',
  'retry-interval': 'retry interval ≥ time already spent × 0.3',
  'x-retry-count': 'every retry carries an x-retry-count header',
  'cause-propagated': 'the original error cause travels across services',
};

function FindingsList({ findings, testId }: { findings: readonly ChecklistFinding[]; testId: string }) {
  return (
    <ul className="seed-lints" data-testid={testId}>
      {findings.map((f) => (
        <li key={f.rule} data-testid={`${testId}-${f.rule}`} data-status={f.status}>
          <Badge status={f.status}>{f.status === 'pass' ? '✓ pass' : f.status === 'fail' ? '✗ fail' : 'n/a'}</Badge> <code>{f.rule}</code>{' '}
          <span className="muted small" title={f.text}>
            (item {f.item}: {RULE_WORDS[f.rule]})
          </span>
          <div className="small">{f.detail}</div>
        </li>
      ))}
    </ul>
  );
}

/** The production checklist ("生产环境验证清单") as named lints over the loaded scenario, edits included. */
export function ChecklistPanel() {
  const scenario = useR((s) => s.scenario);
  const [p99, setP99] = useState<number | null>(null);
  const lints = useMemo(() => checklistForScenario(scenario, p99), [scenario, p99]);
  const incident = useMemo(() => incidentClientLints(), []);
  const failed = lints.reduce((a, l) => a + l.failed, 0);
  const passed = lints.reduce((a, l) => a + l.passed, 0);
  return (
    <section className="panel seed-panel" aria-labelledby="seed-check-h" data-testid="seed-checklist">
      <h2 id="seed-check-h">
        Production checklist <span className="muted small">— {passed} pass, {failed} fail</span>
      </h2>
      <p className="small muted">
        The postmortem's production checklist (its items 2–10) as lints over this scenario as it is now — every edit re-runs them. The p99 they compare with is{' '}
        {p99 === null ? `${formatMs(lints[0]?.p99Ms ?? 0)} ms, from ${lints[0]?.p99Source ?? '—'}` : 'the one typed'}; type another to see the floor move.
      </p>
      <div className="button-row">
        <NumberField label="Historical p99" unit="ms" value={lints[0]?.p99Ms ?? 0} min={0} max={600_000} step={100} testId="seed-p99" onChange={setP99} />
        {p99 !== null && (
          <button type="button" onClick={() => setP99(null)}>
            Use the scenario's p99
          </button>
        )}
      </div>
      {lints.map((l, i) => (
        <div key={`${l.layer}-${i}`} className="seed-layer" data-testid={`seed-layer-${i}`}>
          <h3>
            {l.layer}{' '}
            <span className="muted small" data-testid={`seed-layer-${i}-count`}>
              {l.passed} pass · {l.failed} fail · {l.findings.length - l.passed - l.failed} n/a
            </span>
          </h3>
          <FindingsList findings={l.findings} testId={`seed-lints-${i}`} />
        </div>
      ))}
      <details>
        <summary>The incident's own client (fixed 10 s, p99 14 s): {incident.filter((f) => f.status === 'fail').length} of 8 fail</summary>
        <FindingsList findings={incident} testId="seed-lints-incident" />
      </details>
    </section>
  );
}
