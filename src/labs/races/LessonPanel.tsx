import { useDeferredValue, useMemo } from 'react';
import { checkRacesExpectation as checkExpectation } from '../../store/racesStore';
import type { Json } from '../../sim/types';
import { selectConfig, selectOriginal, selectTrace } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';
import { describeMismatch } from './mismatchText';

/** Override paths whose value differs in the current config, as "path is value". */
function configMismatches(overrides: Record<string, Json> | undefined, config: Record<string, Json>, prefix = ''): string[] {
  if (!overrides) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(overrides)) {
    const actual = config[k];
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      out.push(...configMismatches(v, (actual ?? {}) as Record<string, Json>, `${prefix}${k}.`));
    } else if (JSON.stringify(actual) !== JSON.stringify(v)) out.push(`${prefix}${k} is ${JSON.stringify(actual)}`);
  }
  return out;
}

function flatten(obj: Record<string, Json> | undefined, prefix = ''): string[] {
  if (!obj) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...flatten(v, `${prefix}${k}.`));
    else out.push(`${prefix}${k} = ${JSON.stringify(v)}`);
  }
  return out;
}

/** "The lesson says": each expected outcome, whether the current run meets it, and a button to show it. */
export function LessonPanel() {
  const store = useRacesStore();
  const original = useRaces(selectOriginal);
  // Deferred: during a drag the timeline and outcome update first, this panel right after.
  const trace = useDeferredValue(useRaces(selectTrace));
  const config = useRaces(selectConfig) as unknown as Record<string, Json>;
  const expectations = useMemo(() => original.expect ?? [], [original]);
  const results = useMemo(
    () => expectations.map((e) => ({ outcome: checkExpectation(trace, e), settings: configMismatches(e.overrides as Record<string, Json> | undefined, config) })),
    [expectations, trace, config],
  );
  if (expectations.length === 0) return null;

  return (
    <section className="panel lesson" aria-labelledby="lesson-h">
      <h2 id="lesson-h">The lesson says</h2>
      <ul className="lesson-list">
        {expectations.map((e, i) => {
          const { outcome, settings } = results[i];
          const met = outcome.length === 0 && settings.length === 0;
          const first = outcome[0];
          const why = settings.length > 0 ? `Not with the current settings (${settings.join(', ')}).` : first ? `Not this run: ${describeMismatch(first)}.` : '';
          const overrides = flatten(e.overrides as Record<string, Json> | undefined);
          const isBug = /^bug/i.test(e.label);
          return (
            <li key={i} className={met ? 'is-met' : undefined} data-testid="lesson-row" data-index={i} data-met={met ? 'yes' : 'no'}>
              <div className="lesson-row">
                <span className={met ? 'check-yes' : 'check-no'} aria-hidden="true">
                  {met ? '✓' : '○'}
                </span>
                <span className="lesson-label">{e.label}</span>
              </div>
              <div className="lesson-row2">
                <span className="muted small">
                  {met ? 'The current run shows this.' : why}
                  {overrides.length > 0 && <> Needs: {overrides.join(', ')}.</>}
                </span>
                <button type="button" className="small-btn" onClick={() => store.getState().applyExpectation(i)} aria-label={`${isBug ? 'Show the bug' : 'Show'}: ${e.label}`}>
                  {isBug ? 'Show the bug' : 'Show'}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
