import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayRaces, withOverrides, type RacesTrace } from '../../races';
import { replayFlow, type FlowTrace } from '../../flow';
import type { LabId } from '../../labIds';
import type { Scenario, Trace } from '../../types';
import { loadBuiltinScenarios } from '../builtinScenarios';
import { MECHANICS_INVARIANT_NAMES } from '../../races/mechanics/invariants';

/**
 * Golden traces of the built-in races and flow scenarios: per scenario file, one record per variant (as
 * written, then each expectation's overrides) with the outcome, the invariant results, every wire
 * effect and one compact row per step. A rule change that alters them re-records them on purpose
 * (`npm run golden`), naming the spec sentence in its commit; `golden.test.ts` compares.
 */

export const GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'races');

/** Where the flow lab's golden traces live (same layout; a step row ends with the stream, buffer depth and operation state). */
export const FLOW_GOLDEN_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'flow');

/** One step as a row: [at, source, label, kind, rule, why, ignored reasons, violated invariants, effects, `state` (the lab's compact state)]. */
function stepRow<S>(step: Trace<S, unknown>['steps'][number], state: unknown) {
  return [step.at, step.entry.source, step.entry.label, step.entry.kind, step.rule ?? null, step.why, step.ignored.map((i) => i.reason), step.violations.map((v) => v.invariant), step.effects.length, state];
}

/** The races row's state: the touched requests' client/server states. */
function racesRowState(step: RacesTrace['steps'][number]) {
  return step.state.touched.map((k) => {
    const r = step.state.requests[step.state.indexOf[k]];
    return `${k}:${r.client.state}/${r.server.state}`;
  });
}

/** The flow row's state: stream status, buffer depth, operation state (and open fleet streams). */
function flowRowState(step: FlowTrace['steps'][number]) {
  const s = step.state;
  return `${s.status} depth ${s.buffer.size} op ${s.op.state}${s.fleet ? ` open ${s.fleet.order.length}` : ''}`;
}

function variantRecord<S>(label: string, trace: Trace<S, unknown> & { stepCount: number; truncated: boolean; effects: unknown[] }, rowState: (step: Trace<S, unknown>['steps'][number]) => unknown) {
  return {
    label,
    stepCount: trace.stepCount,
    endAt: trace.endAt,
    truncated: trace.truncated,
    outcome: trace.outcome,
    // The failure mechanics' invariants (issue 11) are recorded only when broken, so traces recorded before them keep their text.
    invariants: Object.fromEntries(trace.invariants.filter((i) => i.firstViolation !== null || !MECHANICS_INVARIANT_NAMES.has(i.name)).map((i) => [i.name, i.firstViolation])),
    effects: trace.effects,
    steps: trace.steps.map((st) => stepRow(st, rowState(st))),
  };
}

/** The golden text of every built-in scenario of `lab`, keyed by file name. One line per effect and per step. */
/**
 * Keeps a long list readable: with a `limit`, a list longer than it keeps its first and last
 * `limit / 2` lines, and the head gets the count and the SHA-256 of every line (so any change still
 * shows). Without a limit, every line.
 */
function clip(lines: string[], limit: number | undefined): { lines: string[]; digest: { count: number; sha256: string } | null } {
  if (limit === undefined || lines.length <= limit) return { lines, digest: null };
  const sha256 = createHash('sha256').update(lines.join('\n')).digest('hex');
  const half = Math.floor(limit / 2);
  return { lines: [...lines.slice(0, half), JSON.stringify(`… ${lines.length - 2 * half} lines, in the sha256 above …`), ...lines.slice(-half)], digest: { count: lines.length, sha256 } };
}

function labGoldenTexts<S>(
  lab: LabId,
  run: (s: Scenario) => Trace<S, unknown> & { stepCount: number; truncated: boolean; effects: unknown[] },
  rowState: (step: Trace<S, unknown>['steps'][number]) => unknown,
  limit?: number,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, scenario } of loadBuiltinScenarios(lab)) {
    const variants = [{ label: 'as written', overrides: undefined }, ...(scenario.expect ?? []).map((e) => ({ label: e.label, overrides: e.overrides }))];
    const records = variants.map((v) => variantRecord(v.label, run(withOverrides(scenario, v.overrides)), rowState));
    const lines: string[] = ['['];
    records.forEach((r, i) => {
      const { effects: allEffects, steps: allSteps, ...rest } = r;
      const effects = clip(allEffects.map((e) => JSON.stringify(e)), limit);
      const steps = clip(allSteps.map((e) => JSON.stringify(e)), limit);
      const head = effects.digest || steps.digest ? { ...rest, effectsDigest: effects.digest, stepsDigest: steps.digest } : rest;
      lines.push(`${JSON.stringify(head).slice(0, -1)},"effects":[`);
      effects.lines.forEach((e, j) => lines.push(e + (j < effects.lines.length - 1 ? ',' : '')));
      lines.push('],"steps":[');
      steps.lines.forEach((s, j) => lines.push(s + (j < steps.lines.length - 1 ? ',' : '')));
      lines.push(']}' + (i < records.length - 1 ? ',' : ''));
    });
    lines.push(']');
    out.set(file, lines.join('\n') + '\n');
  }
  return out;
}

/** The golden text of every built-in races scenario, keyed by file name. One line per effect and per step. */
export function goldenTexts(): Map<string, string> {
  return labGoldenTexts('races', replayRaces, racesRowState);
}

/**
 * The golden text of every built-in flow scenario, keyed by file name (same layout as the races
 * files; a variant with more than 400 effects or steps keeps the first and last 200 and a
 * SHA-256 of all of them: F1's thousands of stalled-subscriber events would take 14 MB).
 */
export function flowGoldenTexts(): Map<string, string> {
  return labGoldenTexts('flow', replayFlow, flowRowState, 400);
}
