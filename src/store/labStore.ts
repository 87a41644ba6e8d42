import { createStore } from 'zustand/vanilla';
import { mergeConfig } from '../sim/replay';
import { withOverrides } from '../sim/expectation';
import { isLabTrace } from '../sim/lab';
import { isLabId } from '../sim/labIds';
import type { ReplayResult } from '../sim/replay';
import type { Json, Scenario } from '../sim/types';
import { emptyHistory, record, redo as redoHistory, undo as undoHistory, type History } from './history';
import { decodeLink, encodeLink, type LinkOptions } from './labLink';
import { playbackActions, suggestedSpeed, timeRangeEnd } from './playback';
import { pickerLabel } from './labSelectors';
import { scenarioEquals } from './scenarioEquals';
import { labTexts } from './labTexts';
import { rememberFork } from './traceScan';

export type { LabError } from './labTexts';
export type { LabActions, LabData, LabSnapshot, LabStore, LabStoreSpec, LabStoreStart, LabStoreState } from './labStoreTypes';
import type { LabData, LabSnapshot, LabStore, LabStoreSpec, LabStoreStart, LabStoreState } from './labStoreTypes';

/**
 * One store factory for every lab (zustand vanilla `createStore`, one store per lab instance):
 * the scenario is the only source of truth, the trace is derived from it with the definition's
 * `replay` on every change. One set of verbs: load (built-in, file, paste, link), edit (with
 * undo/redo), settings, playhead (`playback.ts`), import/export, errors. Lab-specific state (the
 * herd's settings) is the `extra` slice: recorded by undo with the scenario, set through `setExtra`.
 */

/** The dotted paths of the leaves of a config patch (`{ policy: { a: true } }` → `policy.a`), to name a settings step. */
function configPaths(patch: Record<string, Json>, prefix = ''): string[] {
  return Object.entries(patch).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length ? configPaths(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function clampCursor(ms: number, endMs: number): number {
  if (!Number.isFinite(ms)) return 0;
  return Math.min(Math.max(ms, 0), endMs);
}

/** The store of one lab instance. Throws `Error` when there is no scenario to show. */
export function createLabStore<S, O, T extends ReplayResult<S, O>, X = null>(spec: LabStoreSpec<S, O, T, X>, start: LabStoreStart = {}): LabStore<T, X> {
  const { definition, builtins } = spec;
  const lab = definition.id;
  const text = labTexts(lab);
  const first = start.initial ?? builtins[0];
  if (!first) throw new Error(`createLabStore(${lab}): no scenario to show`);
  const rangeEnd =
    spec.rangeEnd ??
    ((scenario: Scenario, trace: T) => {
      let last = trace.endAt;
      for (const e of scenario.events) last = Math.max(last, e.at);
      return timeRangeEnd(last);
    });
  const playEnd = spec.playEnd ?? ((s: LabData<T, X>) => ((s.trace.stepCount ?? s.trace.steps.length) > 0 ? s.trace.endAt : s.rangeEndMs));
  const builtinOf = (scenario: Scenario) => builtins.find((b) => b.id === scenario.id);

  /**
   * The trace of `scenario`. With a seekable definition, an edit forks the current trace (it
   * resumes from the last checkpoint before the first changed time; a drag never replays the whole
   * scenario); else the definition replays it whole, as before.
   */
  const traceOf = (scenario: Scenario, from: T | undefined): T => {
    if (!definition.seekable) return definition.replay(scenario);
    if (from !== undefined && isLabTrace<S, O>(from)) {
      const forked = from.fork(scenario);
      rememberFork(forked, from);
      return forked as unknown as T;
    }
    return definition.seekable(scenario);
  };

  const derive = (scenario: Scenario, from?: T) => {
    const trace = traceOf(scenario, from);
    const stepTimes: number[] = [];
    if (isLabTrace<S, O>(trace)) {
      for (let i = 0; i < trace.stepCount; i++) {
        const at = trace.atOf(i);
        if (stepTimes.length === 0 || stepTimes[stepTimes.length - 1] !== at) stepTimes.push(at);
      }
    } else for (const step of trace.steps) if (stepTimes.length === 0 || stepTimes[stepTimes.length - 1] !== step.at) stepTimes.push(step.at);
    return { scenario, trace, stepTimes, rangeEndMs: rangeEnd(scenario, trace) };
  };

  return createStore<LabStoreState<T, X>>()((set, get) => {
    const snap = (s: LabData<T, X>, step: string): LabSnapshot<X> => ({ scenario: s.scenario, original: s.original, extra: s.extra, step });
    /** The history with the newest undo point renamed to `step` (a drag or a run of nudges is one step, named by its last move). */
    const renameLast = (history: History<LabSnapshot<X>>, step: string): History<LabSnapshot<X>> => {
      const last = history.past[history.past.length - 1];
      return last ? { past: [...history.past.slice(0, -1), { ...last, step }], future: history.future } : history;
    };
    const tryDerive = (scenario: Scenario, title: string) => {
      try {
        return derive(scenario, get()?.trace);
      } catch (err) {
        set({ error: { title, errors: [`(model): ${(err as Error).message}`] } });
        return null;
      }
    };

    /** An edit named `step`: replaces the scenario, recording an undo point unless a drag already did (or `coalesce`). */
    const change = (scenario: Scenario, step: string, extra: Partial<LabData<T, X>> = {}, coalesce = false) => {
      const s = get();
      const derived = tryDerive(scenario, text.cannotRun);
      if (!derived) return;
      const history = s.dragging || coalesce ? renameLast(s.history, step) : record(s.history, snap(s, step));
      // A playhead parked at the end follows the new end; elsewhere it stays put.
      const wanted = extra.cursorMs ?? (s.cursorMs >= s.rangeEndMs ? derived.rangeEndMs : s.cursorMs);
      set({ ...derived, history, error: null, notice: null, imported: null, lastNudge: null, ...extra, cursorMs: clampCursor(wanted, derived.rangeEndMs) });
    };

    const restore = (value: LabSnapshot<X>, history: History<LabSnapshot<X>>) => {
      const derived = derive(value.scenario, get().trace);
      const s = get();
      set({
        ...derived,
        original: value.original,
        extra: value.extra,
        history,
        error: null,
        notice: null,
        imported: null,
        dragging: false,
        lastNudge: null,
        cursorMs: clampCursor(s.cursorMs, derived.rangeEndMs),
        selectedEventId: value.scenario.events.some((e) => e.id === s.selectedEventId) ? s.selectedEventId : null,
        loadCount: s.scenario.id !== value.scenario.id ? s.loadCount + 1 : s.loadCount,
      });
    };

    /** Validates a candidate edit with the lab's rules; shows `title` with every problem when refused. */
    const validated = (candidate: Scenario, title: string): Scenario | null => {
      const parsed = definition.parse(candidate);
      if (!parsed.ok) {
        set({ error: { title, errors: parsed.errors } });
        return null;
      }
      return parsed.scenario;
    };

    /**
     * For a page that loads its parser lazily (`parserReady`): while the parser is still loading,
     * queues `run` (the same action again) for when it has and returns true; false when parsing can
     * run now. Every action that parses goes through it, so what is refused and the messages shown
     * do not depend on when the action ran.
     */
    const afterParserLoads = (run: () => void): boolean => {
      const ready = definition.parserReady?.() ?? null;
      if (ready === null) return false;
      void ready.then(run, (err: unknown) => set({ error: { title: text.cannotRun, errors: [`(parser): could not load — ${(err as Error).message}`] } }));
      return true;
    };

    /** Parses text or a value as a scenario for this page (schema, lab rules, page limits). */
    const parseForPage = (value: unknown) => {
      const parsed = definition.parse(value);
      const problem = parsed.ok ? (definition.pageProblem?.(parsed.scenario) ?? null) : null;
      return problem ? { ok: false as const, errors: [problem] } : parsed;
    };

    /** Shows the original with `overrides`, as the undoable step `step`. */
    const overridesStep = (overrides: Record<string, Json> | undefined, step: string) => {
      if (afterParserLoads(() => overridesStep(overrides, step))) return;
      const next = validated(withOverrides(get().original, overrides), text.overridesRefused);
      if (next) change(next, step);
    };

    const initial = derive(first);
    const linkOptions: LinkOptions = spec.link ?? {};
    return {
      lab,
      builtins,
      ...initial,
      original: start.original ?? builtinOf(first) ?? first,
      cursorMs: clampCursor(start.cursorMs ?? 0, initial.rangeEndMs),
      playing: false,
      speed: suggestedSpeed(initial.trace.endAt),
      selectedEventId: null,
      error: start.error ?? (spec.builtinErrors?.length ? { title: text.builtinsSkipped, errors: [...spec.builtinErrors] } : null),
      notice: null,
      imported: null,
      importedScenarios: [],
      history: emptyHistory(),
      dragging: false,
      loadCount: 0,
      lastNudge: null,
      extra: spec.extra as X,

      loadBuiltin(id) {
        const builtin = builtins.find((b) => b.id === id);
        if (!builtin) {
          set({ error: { title: text.unknownScenario, errors: [`scenario id: no built-in scenario is called ${JSON.stringify(id)} — pick one of ${builtins.map((b) => b.id).join(', ')}`] } });
          return;
        }
        get().loadScenario(builtin, { original: builtin, step: `switch to ${pickerLabel(builtin)}` });
      },

      loadImported(index) {
        const list = get().importedScenarios;
        const scenario = list[index];
        if (scenario === undefined) {
          set({ error: { title: text.unknownScenario, errors: [`imported scenario: there is no import number ${index + 1} — ${list.length} scenario${list.length === 1 ? ' was' : 's were'} imported on this page`] } });
          return;
        }
        get().loadScenario(scenario, { step: `switch to ${scenario.title} (imported)` });
      },

      loadScenario(scenario, opts = {}) {
        const s = get();
        const derived = tryDerive(scenario, text.cannotRun);
        if (!derived) return;
        const original = opts.original ?? builtinOf(scenario) ?? scenario;
        const sameId = s.scenario.id === scenario.id;
        const keepView = opts.keepView ?? false;
        set({
          ...derived,
          original,
          history: record(s.history, snap(s, opts.step ?? `open ${pickerLabel(scenario)}`)),
          error: null,
          notice: null,
          imported: null,
          playing: false,
          dragging: false,
          lastNudge: null,
          selectedEventId: keepView ? s.selectedEventId : null,
          cursorMs: clampCursor(opts.cursorMs ?? (keepView ? s.cursorMs : 0), derived.rangeEndMs),
          speed: keepView || sameId ? s.speed : suggestedSpeed(derived.trace.endAt),
          loadCount: sameId && keepView ? s.loadCount : s.loadCount + 1,
        });
      },

      importText(raw, source = 'The imported scenario') {
        const where = /^The pasted/.test(source) ? '(pasted text)' : '(file)';
        let value: unknown;
        if (raw.trim() === '') {
          set({ error: { title: text.importRefused(source), errors: [`${where}: is empty; expected a ${lab} scenario as JSON`] } });
          return false;
        }
        try {
          value = JSON.parse(raw);
        } catch (err) {
          set({ error: { title: text.importRefused(source), errors: [`${where}: not valid JSON — ${(err as Error).message}`] } });
          return false;
        }
        // A parser still loading: the import runs once it has (its result shows then; false here).
        if (afterParserLoads(() => void get().importText(raw, source))) return false;
        const other = value !== null && typeof value === 'object' ? (value as { lab?: unknown }).lab : undefined;
        const parsed = parseForPage(value);
        if (!parsed.ok) {
          set({ error: { title: isLabId(other) && other !== lab ? text.otherLab(source) : text.importRefused(source), errors: parsed.errors } });
          return false;
        }
        const before = get().scenario;
        get().loadScenario(parsed.scenario, { step: `import ${pickerLabel(parsed.scenario)}` });
        if (get().scenario === before) return false;
        // Listed for the picker unless it is a built-in as the lesson has it (the picker has that one).
        const same = builtinOf(parsed.scenario);
        const listed = get().importedScenarios.filter((s) => s.id !== parsed.scenario.id || s.title !== parsed.scenario.title);
        const importedScenarios = same !== undefined && scenarioEquals(same, parsed.scenario) ? get().importedScenarios : [...listed, parsed.scenario];
        set({ imported: parsed.scenario.title, importedScenarios });
        return true;
      },

      followLink(hash) {
        if (afterParserLoads(() => get().followLink(hash))) return;
        const s = get();
        const d = decodeLink(lab, hash, builtins, parseForPage, linkOptions);
        if (d.kind === 'none') return;
        if (d.kind === 'bad') {
          set({ error: { title: text.badLinkKept(s.scenario.title), errors: d.errors } });
          return;
        }
        if (!scenarioEquals(s.scenario, d.scenario) || (d.cursorMs !== null && d.cursorMs !== Math.floor(s.cursorMs))) {
          s.loadScenario(d.scenario, { original: d.original, cursorMs: d.cursorMs, keepView: d.scenario.id === s.scenario.id, step: `follow the link to ${pickerLabel(d.scenario)}` });
        }
        if (d.warnings.length) set({ error: { title: text.partsIgnored(d.scenario.title, d.builtinId !== null), errors: d.warnings } });
      },

      address() {
        const s = get();
        return encodeLink(lab, s.scenario, builtins, { ...linkOptions, cursorMs: s.playing ? null : Math.floor(s.cursorMs) });
      },

      setConfig(patch) {
        if (afterParserLoads(() => get().setConfig(patch))) return;
        const s = get();
        const next = validated({ ...s.scenario, config: mergeConfig(s.scenario.config as Record<string, Json>, patch) }, text.settingRefused);
        if (next) change(next, `change ${configPaths(patch).join(', ')}`);
      },

      moveEvent(id, atMs) {
        const s = get();
        const wanted = Math.min(Math.max(Math.round(atMs), 0), 1_000_000_000);
        const held = spec.constrainMove?.(s.scenario, id, wanted) ?? { atMs: wanted, notice: null };
        const index = s.scenario.events.findIndex((e) => e.id === id);
        if (index < 0 || s.scenario.events[index].at === held.atMs) {
          if (held.notice !== s.notice) set({ notice: held.notice });
          return;
        }
        const events = s.scenario.events.slice();
        events[index] = { ...events[index], at: held.atMs };
        change({ ...s.scenario, events }, `move ${id} to ${held.atMs} ms`, { selectedEventId: id, notice: held.notice });
      },

      nudgeEvent(id, deltaMs, nowMs = Date.now()) {
        const s = get();
        const ev = s.scenario.events.find((e) => e.id === id);
        if (!ev) return;
        const repeat = s.lastNudge !== null && s.lastNudge.id === id && nowMs - s.lastNudge.atMs < 1000;
        const wanted = Math.min(Math.max(Math.round(ev.at + deltaMs), 0), 1_000_000_000);
        const held = spec.constrainMove?.(s.scenario, id, wanted) ?? { atMs: wanted, notice: null };
        if (held.atMs === ev.at) {
          const notice = held.notice ?? (deltaMs !== 0 ? text.atTimelineEnd(id, ev.at, deltaMs) : null);
          if (notice !== s.notice) set({ notice });
          return;
        }
        const events = s.scenario.events.map((e) => (e.id === id ? { ...e, at: held.atMs } : e));
        change({ ...s.scenario, events }, `move ${id} to ${held.atMs} ms`, { selectedEventId: id, notice: held.notice, lastNudge: { id, atMs: nowMs } }, repeat);
      },

      reorderEvent(id, direction) {
        const s = get();
        const events = s.scenario.events;
        const i = events.findIndex((e) => e.id === id);
        if (i < 0) return;
        // The neighbour in list order among events at the same millisecond.
        let j = i + direction;
        while (j >= 0 && j < events.length && events[j].at !== events[i].at) j += direction;
        if (j < 0 || j >= events.length) {
          set({ notice: text.noTieNeighbour(id, events[i].at, direction) });
          return;
        }
        const problem = spec.reorderProblem?.(events[i], events[j], direction) ?? null;
        if (problem) {
          set({ notice: problem });
          return;
        }
        const next = events.slice();
        [next[i], next[j]] = [next[j], next[i]];
        change({ ...s.scenario, events: next }, `swap ${id} with ${events[j].id}`, { selectedEventId: id });
      },

      beginDrag() {
        const s = get();
        if (!s.dragging) set({ dragging: true, history: record(s.history, snap(s, 'drag')) });
      },
      endDrag() {
        set({ dragging: false });
      },

      applyExpectation(index) {
        const s = get();
        const expectation = s.original.expect?.[index] ?? s.scenario.expect?.[index];
        if (expectation) overridesStep(expectation.overrides as Record<string, Json> | undefined, `show the lesson row "${expectation.label}"`);
      },
      applyOverrides(overrides) {
        overridesStep(overrides, overrides && Object.keys(overrides).length ? `apply ${configPaths(overrides).join(', ')}` : "back to the lesson's settings");
      },
      showScenario(scenario, cursorMs) {
        change(scenario, `show ${pickerLabel(scenario)}`, cursorMs === undefined ? {} : { cursorMs });
      },

      setExtra(patch) {
        const s = get();
        const checked = spec.checkExtra ? spec.checkExtra(s.extra, patch) : { ok: true as const, value: { ...s.extra, ...patch } };
        if (!checked.ok) {
          set({ error: checked.error });
          return;
        }
        set({ extra: checked.value, history: record(s.history, snap(s, `change ${Object.keys(patch).join(', ')}`)), error: null });
      },

      ...playbackActions(get, set, playEnd),
      play() {
        if (!get().playing) get().togglePlay();
      },
      pause() {
        if (get().playing) get().togglePlay();
      },
      select(id) {
        set({ selectedEventId: id });
      },

      exportJson() {
        const s = get();
        return { filename: `${s.scenario.id}.json`, text: JSON.stringify(s.scenario, null, 2) + '\n' };
      },
      reset() {
        const s = get();
        if (!scenarioEquals(s.scenario, s.original)) change(s.original, "reset to the lesson's scenario", { selectedEventId: null });
      },
      undo() {
        const s = get();
        const r = undoHistory(s.history, snap(s, s.history.past[s.history.past.length - 1]?.step ?? ''));
        if (r) restore(r.value, r.history);
      },
      redo() {
        const s = get();
        const r = redoHistory(s.history, snap(s, s.history.future[s.history.future.length - 1]?.step ?? ''));
        if (r) restore(r.value, r.history);
      },
      setError(error) {
        set({ error });
      },
      clearError() {
        set({ error: null });
      },
    };
  });
}

export * from './labSelectors';
export { linkParses, storeFromLink } from './labStoreLink';
