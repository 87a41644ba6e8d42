import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayResilience, withOverrides, type ResilienceState, type ResilienceTrace } from '../../resilience';
import { loadBuiltinScenarios } from '../builtinScenarios';

/**
 * Golden traces of the built-in resilience scenarios, in the races recorder's format: per scenario
 * file, one record per variant (as written, then each expectation's overrides) with the outcome,
 * the invariant results, every wire effect and one compact row per step. A rule change that alters
 * them re-records them on purpose (`npm run golden`), naming the spec sentence or incident in its
 * commit; `src/sim/resilience/__tests__/golden.test.ts` compares.
 */

export const RESILIENCE_GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'resilience');

/** The mechanism's state in a few words: task status / client's view, breaker mode / calls in flight, action / executions. */
function stateWords(s: ResilienceState): string {
  if (s.mechanism === 'tasks') return `${s.server.status}/${s.client.observed}`;
  if (s.mechanism === 'breaker') return `${s.mode}/${s.live.length}`;
  return `${s.user.state}/${s.executions.length}`;
}

/** One step as a row: [at, source, label, kind, rule, why, ignored reasons, violated invariants, effects, state in words]. */
function stepRow(step: ResilienceTrace['steps'][number]) {
  return [step.at, step.entry.source, step.entry.label, step.entry.kind, step.rule ?? null, step.why, step.ignored.map((i) => i.reason), step.violations.map((v) => v.invariant), step.effects.length, stateWords(step.state)];
}

/** The golden text of every built-in resilience scenario, keyed by file name. One line per effect and per step. */
export function resilienceGoldenTexts(): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, scenario } of loadBuiltinScenarios('resilience')) {
    const variants = [{ label: 'as written', overrides: undefined }, ...(scenario.expect ?? []).map((e) => ({ label: e.label, overrides: e.overrides }))];
    const lines: string[] = ['['];
    variants.forEach((v, i) => {
      const trace = replayResilience(withOverrides(scenario, v.overrides));
      const head = { label: v.label, stepCount: trace.stepCount, endAt: trace.endAt, truncated: trace.truncated, outcome: trace.outcome, invariants: Object.fromEntries(trace.invariants.map((x) => [x.name, x.firstViolation])) };
      lines.push(`${JSON.stringify(head).slice(0, -1)},"effects":[`);
      trace.effects.forEach((e, j) => lines.push(JSON.stringify(e) + (j < trace.effects.length - 1 ? ',' : '')));
      lines.push('],"steps":[');
      trace.steps.forEach((s, j) => lines.push(JSON.stringify(stepRow(s)) + (j < trace.steps.length - 1 ? ',' : '')));
      lines.push(']}' + (i < variants.length - 1 ? ',' : ''));
    });
    lines.push(']');
    out.set(file, lines.join('\n') + '\n');
  }
  return out;
}
