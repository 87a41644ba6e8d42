import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayRaces, withOverrides, type RacesTrace } from '../../races';
import { loadBuiltinScenarios } from '../builtinScenarios';
import { MECHANICS_INVARIANT_NAMES } from '../../races/mechanics/invariants';

/**
 * Golden traces of the built-in races scenarios: per scenario file, one record per variant (as
 * written, then each expectation's overrides) with the outcome, the invariant results, every wire
 * effect and one compact row per step. A rule change that alters them re-records them on purpose
 * (`npm run golden`), naming the spec sentence in its commit; `golden.test.ts` compares.
 */

export const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'races');

/** One step as a row: [at, source, label, kind, rule, why, ignored reasons, violated invariants, effects, touched request states]. */
function stepRow(step: RacesTrace['steps'][number]) {
  const touched = step.state.touched.map((k) => {
    const r = step.state.requests[step.state.indexOf[k]];
    return `${k}:${r.client.state}/${r.server.state}`;
  });
  return [step.at, step.entry.source, step.entry.label, step.entry.kind, step.rule ?? null, step.why, step.ignored.map((i) => i.reason), step.violations.map((v) => v.invariant), step.effects.length, touched];
}

function variantRecord(label: string, trace: RacesTrace) {
  return {
    label,
    stepCount: trace.stepCount,
    endAt: trace.endAt,
    truncated: trace.truncated,
    outcome: trace.outcome,
    // The failure mechanics' invariants (issue 11) are recorded only when broken, so traces recorded before them keep their text.
    invariants: Object.fromEntries(trace.invariants.filter((i) => i.firstViolation !== null || !MECHANICS_INVARIANT_NAMES.has(i.name)).map((i) => [i.name, i.firstViolation])),
    effects: trace.effects,
    steps: trace.steps.map(stepRow),
  };
}

/** The golden text of every built-in races scenario, keyed by file name. One line per effect and per step. */
export function goldenTexts(): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, scenario } of loadBuiltinScenarios('races')) {
    const variants = [{ label: 'as written', overrides: undefined }, ...(scenario.expect ?? []).map((e) => ({ label: e.label, overrides: e.overrides }))];
    const records = variants.map((v) => variantRecord(v.label, replayRaces(withOverrides(scenario, v.overrides))));
    const lines: string[] = ['['];
    records.forEach((r, i) => {
      const { effects, steps, ...head } = r;
      lines.push(`${JSON.stringify(head).slice(0, -1)},"effects":[`);
      effects.forEach((e, j) => lines.push(JSON.stringify(e) + (j < effects.length - 1 ? ',' : '')));
      lines.push('],"steps":[');
      steps.forEach((s, j) => lines.push(JSON.stringify(s) + (j < steps.length - 1 ? ',' : '')));
      lines.push(']}' + (i < records.length - 1 ? ',' : ''));
    });
    lines.push(']');
    out.set(file, lines.join('\n') + '\n');
  }
  return out;
}
