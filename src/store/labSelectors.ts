import { stepIndexAt } from '../sim/replay';
import { isLabTrace, type LabPageDefinition } from '../sim/lab';
import type { ReplayResult } from '../sim/replay';
import type { LabData } from './labStore';
import { scenarioEquals } from './scenarioEquals';

/** Named selectors every lab store offers (pass them to `useLab`). */
export const selectScenario = (s: LabData<unknown, unknown>) => s.scenario;
export const selectTrace = <T>(s: LabData<T, unknown>) => s.trace;
export const selectCursor = (s: LabData<unknown, unknown>) => s.cursorMs;
export const selectPlaying = (s: LabData<unknown, unknown>) => s.playing;
export const selectSpeed = (s: LabData<unknown, unknown>) => s.speed;
export const selectError = (s: LabData<unknown, unknown>) => s.error;
export const selectNotice = (s: LabData<unknown, unknown>) => s.notice;
export const selectSelectedEventId = (s: LabData<unknown, unknown>) => s.selectedEventId;
export const selectRangeEnd = (s: LabData<unknown, unknown>) => s.rangeEndMs;
export const selectCanUndo = (s: LabData<unknown, unknown>) => s.history.past.length > 0;
export const selectCanRedo = (s: LabData<unknown, unknown>) => s.history.future.length > 0;
/** The step Undo would undo ("switch to B · …", "move cancel to 700 ms"), or null when there is none. */
export const selectUndoStep = (s: LabData<unknown, unknown>) => s.history.past[s.history.past.length - 1]?.step ?? null;
/** The step Redo would redo, or null when there is none. */
export const selectRedoStep = (s: LabData<unknown, unknown>) => s.history.future[s.history.future.length - 1]?.step ?? null;
export const selectBuiltins = (s: LabData<unknown, unknown>) => s.builtins;
export const selectOriginal = (s: LabData<unknown, unknown>) => s.original;
export const selectLoadCount = (s: LabData<unknown, unknown>) => s.loadCount;
/** The last answer of `selectIsModified` per scenario object (with the original it was compared to). */
const modifiedOf = new WeakMap<object, { original: object; modified: boolean }>();
/**
 * Whether the scenario differs from the lesson's original. Remembered per (scenario, original)
 * pair: the scenario bar's subscription reads it on every store change (each playhead step, and
 * two or three times per drag move), and comparing a 2,000-event scenario costs a pass over it.
 */
export const selectIsModified = (s: LabData<unknown, unknown>): boolean => {
  const known = modifiedOf.get(s.scenario);
  if (known !== undefined && known.original === s.original) return known.modified;
  const modified = !scenarioEquals(s.scenario, s.original);
  modifiedOf.set(s.scenario, { original: s.original, modified });
  return modified;
};
/** The title of the scenario the last import loaded, until the next edit, load or undo (the scenario bar's "Imported … — Undo"). */
export const selectImported = (s: LabData<unknown, unknown>) => s.imported;
/** The scenarios imported on this page, oldest first (the picker's "Imported" group). */
export const selectImportedScenarios = (s: LabData<unknown, unknown>) => s.importedScenarios;

/**
 * The picker's option value of each imported scenario (`importedScenarios`, same order): the value
 * `pickerCurrent` gives it (its id, or "(imported) <id>" for a copy of a built-in), so the
 * select reads as before for the one shown; where that value is taken — by a built-in's own
 * option or by an earlier entry — `imported:<index>`, which no scenario id can be (ids hold no
 * ':'). Every value is distinct from every other option's.
 */
export function importedOptionValues(builtins: readonly { id: string; title: string }[], imported: readonly { id: string; title: string }[]): string[] {
  const taken = new Set(builtins.map((b) => b.id));
  return imported.map((scenario, i) => {
    const current = pickerCurrent(builtins, scenario);
    const value = current.builtin || taken.has(current.value) ? `imported:${i}` : current.value;
    taken.add(value);
    return value;
  });
}


/** Index of the last trace step at or before the playhead (-1 before the first), for panels that list the steps around it. */
export const selectStepIndex = (s: LabData<{ steps: readonly { at: number }[] }, unknown>) =>
  isLabTrace(s.trace) ? s.trace.indexAt(s.cursorMs) : stepIndexAt(s.trace.steps as Parameters<typeof stepIndexAt>[0], s.cursorMs);

/** Index of the first step at the same millisecond as step `index` of a seekable trace (`index` itself when it is the first; -1 → -1). */
export function firstStepAtSameMs(trace: { atOf(i: number): number }, index: number): number {
  if (index < 0) return -1;
  const at = trace.atOf(index);
  let first = index;
  while (first > 0 && trace.atOf(first - 1) === at) first--;
  return first;
}

/** The steps at the same millisecond as step `index`, up to it (the "now" panels list them); empty before the first step. */
export function stepsAtSameMs<St extends { at: number }>(steps: readonly St[], index: number): St[] {
  if (index < 0 || index >= steps.length) return [];
  const at = steps[index].at;
  let first = index;
  while (first > 0 && steps[first - 1].at === at) first--;
  return steps.slice(first, index + 1);
}

/**
 * The picker label of a built-in scenario: its title, led by the letter code of its file name
 * (`E-invalid-cancels` → "E · …", `F1-…` → "F1 · …") when the title does not already start with it,
 * so the picker shows the same letters as the README and the lesson.
 */
export function pickerLabel(scenario: { id: string; title: string }): string {
  const code = /^([A-Z][0-9]*)-/.exec(scenario.id)?.[1];
  if (!code || scenario.title.startsWith(`${code} `)) return scenario.title;
  return `${code} · ${scenario.title}`;
}

/**
 * What the scenario picker shows for the current scenario: the built-in's own option when the
 * scenario is that built-in (the same id and title — it may be edited, the "edited" badge says so),
 * else an "(imported)" entry with the scenario's own title. A retitled copy of a built-in keeps the
 * built-in's id but is not the lesson's scenario, so it shows under its own title (walkthrough:
 * the picker named the built-in while the heading showed the new title). `value` is the option's
 * value, never a built-in's id for an imported entry (so picking that built-in is a real change).
 */
export function pickerCurrent(builtins: readonly { id: string; title: string }[], scenario: { id: string; title: string }): { builtin: true; value: string } | { builtin: false; value: string; label: string } {
  const builtin = builtins.find((b) => b.id === scenario.id);
  if (builtin && builtin.title === scenario.title) return { builtin: true, value: scenario.id };
  return { builtin: false, value: builtin ? `(imported) ${scenario.id}` : scenario.id, label: `${scenario.title} (imported)` };
}

/**
 * "State and outcome at the playhead" for a lab, as named selectors over its store. They go
 * through the definition (`stateAt`, `outcomeAt`), never by indexing the trace in a view, and are
 * memoised per (trace, playhead), so `useStore` sees a stable value between changes.
 */
export function playheadSelectors<S, O, T extends ReplayResult<S, O>>(definition: Pick<LabPageDefinition<S, O, T>, 'stateAt' | 'outcomeAt'>) {
  let outcomeKey: { trace: T | null; atMs: number } = { trace: null, atMs: NaN };
  let outcome: O | undefined;
  let stateKey: { trace: T | null; index: number } = { trace: null, index: NaN };
  let state: S | undefined;
  return {
    // A seekable trace rebuilds its state views on each read: the same (trace, step) gives the same
    // object, so `useStore` sees a stable value between changes.
    selectStateAt: (s: LabData<T, unknown>): S => {
      const t = s.trace;
      if (!isLabTrace(t)) return definition.stateAt(t, s.cursorMs);
      const index = t.indexAt(s.cursorMs);
      if (stateKey.trace !== t || stateKey.index !== index || state === undefined) {
        state = definition.stateAt(t, s.cursorMs);
        stateKey = { trace: t, index };
      }
      return state;
    },
    selectOutcomeAt: (s: LabData<T, unknown>): O => {
      if (outcomeKey.trace !== s.trace || outcomeKey.atMs !== s.cursorMs || outcome === undefined) {
        // Same step (the playhead moved within one step) → same outcome object. A seekable trace
        // rebuilds its state views, so it is compared by step index rather than by state object.
        const t = s.trace;
        const sameStep = isLabTrace(t) ? t.indexAt(s.cursorMs) === t.indexAt(outcomeKey.atMs) : definition.stateAt(t, outcomeKey.atMs) === definition.stateAt(t, s.cursorMs);
        if (outcome === undefined || outcomeKey.trace !== s.trace || !sameStep) outcome = definition.outcomeAt(s.trace, s.cursorMs);
        outcomeKey = { trace: s.trace, atMs: s.cursorMs };
      }
      return outcome;
    },
  };
}
