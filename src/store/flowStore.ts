import { createStore, type StoreApi } from 'zustand/vanilla';
import { mergeConfig } from '../sim/engine';
import { LAB_SCHEMAS, parseAnyScenarioText, parseScenario } from '../sim/labs';
import { BACKOFF_STRATEGIES, type BackoffStrategy } from '../sim/retry/backoff';
import { replayFlow, withFlowOverrides, type FlowTrace } from '../sim/flow';
import type { Json, Scenario } from '../sim/types';
import { decodeFlowHash } from './flowUrl';
import { emptyHistory, record, redo as redoHistory, undo as undoHistory, type History } from './history';
import { playbackActions, suggestedSpeed, type PlaybackActions } from './playback';

/**
 * The flow lab store (zustand vanilla, one per lab instance). The scenario is the only source of
 * truth for the stream view; the trace is derived from it with `replayFlow` on every change.
 * The herd plot has its own settings (plain numbers) and shares the undo history with the scenario.
 */

const files = import.meta.glob('/public/scenarios/flow/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

/** Built-in flow scenarios (validated; an invalid file is reported, never shown). */
export function loadBuiltinFlow(): { scenarios: Scenario[]; errors: string[] } {
  const scenarios: Scenario[] = [];
  const errors: string[] = [];
  for (const path of Object.keys(files).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))) {
    const parsed = parseScenario(files[path], 'flow', LAB_SCHEMAS.flow);
    if (parsed.ok) scenarios.push(parsed.scenario);
    else errors.push(...parsed.errors.map((e) => `${path.split('/').pop()} → ${e}`));
  }
  return { scenarios, errors };
}

/** Settings of the herd plot. */
export interface HerdSettings {
  clients: number;
  strategies: BackoffStrategy[];
  outageMs: number;
  acceptPerSecond: number;
  baseMs: number;
  capMs: number;
  seed: number;
  maxAttempts: number;
  bucketMs: number;
}

export const DEFAULT_HERD: HerdSettings = {
  clients: 10000,
  strategies: ['exponential', 'full-jitter', 'lesson-sha256'],
  outageMs: 5000,
  acceptPerSecond: 2000,
  baseMs: 1000,
  capMs: 32000,
  seed: 42,
  maxAttempts: 8,
  bucketMs: 500,
};

/** Bounds of each herd field (the UI's inputs use them; `setHerd` clamps to them). */
export const HERD_LIMITS: Record<Exclude<keyof HerdSettings, 'strategies'>, [number, number]> = {
  clients: [10, 100000],
  outageMs: [0, 60000],
  acceptPerSecond: [1, 100000],
  baseMs: [1, 10000],
  capMs: [1, 120000],
  seed: [0, 0xffffffff],
  maxAttempts: [1, 8],
  bucketMs: [100, 5000],
};

interface Snapshot {
  scenario: Scenario;
  herd: HerdSettings;
}

export interface FlowStoreState extends PlaybackActions {
  builtins: readonly Scenario[];
  scenario: Scenario;
  original: Scenario;
  trace: FlowTrace;
  /** Distinct step times of the trace, ascending (virtual ms): where ←/→ step to. */
  stepTimes: readonly number[];
  /** Playhead, virtual ms (fractional while playing). */
  cursorMs: number;
  rangeEndMs: number;
  playing: boolean;
  /** Virtual milliseconds per real second while playing. */
  speed: number;
  herd: HerdSettings;
  error: { title: string; errors: string[] } | null;
  history: History<Snapshot>;
  dragging: boolean;
  loadCount: number;
  loadBuiltin(id: string): void;
  loadScenario(scenario: Scenario): void;
  /** Loads scenario JSON text (a file or a paste; `source` names it in errors). False when refused (the error says why). */
  importText(text: string, source?: string): boolean;
  setConfig(patch: Record<string, Json>): void;
  moveEvent(id: string, atMs: number): void;
  nudgeEvent(id: string, deltaMs: number): void;
  beginDrag(): void;
  endDrag(): void;
  setHerd(patch: Partial<HerdSettings>): void;
  undo(): void;
  redo(): void;
  reset(): void;
  /** Shows one of the lesson's rows: the scenario as loaded with that row's config overrides (undoable). */
  applyLessonRow(overrides: Record<string, Json> | undefined): void;
  clearError(): void;
  /** Shows a problem (bad link, unreadable file); the scenario is left as it is. */
  setError(error: { title: string; errors: string[] } | null): void;
}

export type FlowStore = StoreApi<FlowStoreState>;

function derive(scenario: Scenario) {
  const trace = replayFlow(scenario);
  const horizon = (scenario.config as { horizonMs?: number }).horizonMs ?? 0;
  const last = Math.max(trace.endAt, ...scenario.events.map((e) => e.at));
  const rangeEndMs = Math.max(100, Math.min(horizon || last, Math.ceil((last * 1.05) / 10) * 10) || 100);
  const stepTimes: number[] = [];
  for (const step of trace.steps) if (stepTimes[stepTimes.length - 1] !== step.at) stepTimes.push(step.at);
  return { trace, rangeEndMs, stepTimes };
}

const clamp = (v: number, [lo, hi]: [number, number]) => Math.min(hi, Math.max(lo, Math.round(v)));

/** The error a bad link raises: what was wrong, and which scenario the page shows instead. */
export function badLinkError(errors: string[], shown: Scenario, kept: boolean): { title: string; errors: string[] } {
  return { title: `The link does not hold a valid flow scenario; ${kept ? 'still showing' : 'showing'} "${shown.title}" instead`, errors };
}

export function createFlowStore(init?: { hash?: string }): FlowStore {
  const { scenarios, errors } = loadBuiltinFlow();
  const decoded = decodeFlowHash(init?.hash ?? '', scenarios);
  const first = (decoded.ok ? decoded.scenario : null) ?? scenarios[0];
  const bootErrors = decoded.ok ? [] : decoded.errors;
  return createStore<FlowStoreState>((set, get) => {
    const apply = (scenario: Scenario, opts: { recordUndo: boolean; original?: Scenario; keepCursor?: boolean }) => {
      const s = get();
      let derived: ReturnType<typeof derive>;
      try {
        derived = derive(scenario);
      } catch (err) {
        set({ error: { title: 'That change cannot be simulated; the previous scenario is kept', errors: [(err as Error).message] } });
        return;
      }
      set({
        scenario,
        original: opts.original ?? s.original,
        ...derived,
        // A loaded scenario opens at 0, like every lab; after an edit a playhead parked at the end
        // follows the new end, elsewhere it stays put.
        cursorMs: !opts.keepCursor ? 0 : s.cursorMs < s.rangeEndMs ? Math.min(s.cursorMs, derived.rangeEndMs) : derived.rangeEndMs,
        playing: opts.keepCursor ? s.playing : false,
        speed: opts.original && opts.original.id !== s.original.id ? suggestedSpeed(derived.trace.endAt) : s.speed,
        history: opts.recordUndo ? record(s.history, { scenario: s.scenario, herd: s.herd }) : s.history,
        loadCount: opts.original ? s.loadCount + 1 : s.loadCount,
        error: null,
      });
    };
    const validate = (candidate: unknown): Scenario | null => {
      const parsed = parseScenario(candidate, 'flow', LAB_SCHEMAS.flow);
      if (!parsed.ok) {
        set({ error: { title: 'That setting is not valid; the previous scenario is kept', errors: parsed.errors } });
        return null;
      }
      return parsed.scenario;
    };
    const d = derive(first);
    return {
      builtins: scenarios,
      scenario: first,
      original: first,
      ...d,
      cursorMs: 0,
      playing: false,
      speed: suggestedSpeed(d.trace.endAt),
      herd: DEFAULT_HERD,
      error: bootErrors.length
        ? badLinkError(bootErrors, first, false)
        : errors.length
          ? { title: 'Some built-in scenario files are invalid and were skipped', errors }
          : null,
      history: emptyHistory(),
      dragging: false,
      loadCount: 0,
      loadBuiltin(id) {
        const found = get().builtins.find((s) => s.id === id);
        if (!found) {
          set({ error: { title: `No built-in scenario "${id}"`, errors: [] } });
          return;
        }
        apply(found, { recordUndo: true, original: found });
      },
      loadScenario(scenario) {
        apply(scenario, { recordUndo: true, original: scenario });
      },
      importText(text, source = 'The file') {
        const parsed = parseAnyScenarioText(text);
        if (parsed.lab !== undefined && parsed.lab !== 'flow') {
          // Another lab's scenario: say where it belongs rather than list field errors.
          const other = parsed.lab;
          set({ error: { title: `${source} is not a flow scenario; nothing was changed`, errors: [`lab: this file is a "${other}" scenario; open it in the ${other.charAt(0).toUpperCase()}${other.slice(1)} lab (#/${other})`] } });
          return false;
        }
        if (!parsed.ok) {
          set({ error: { title: `${source} is not a valid flow scenario; nothing was changed`, errors: parsed.errors } });
          return false;
        }
        apply(parsed.scenario, { recordUndo: true, original: parsed.scenario });
        return get().scenario === parsed.scenario;
      },
      setConfig(patch) {
        const s = get();
        const next = validate({ ...s.scenario, config: mergeConfig(s.scenario.config, patch) });
        if (next) apply(next, { recordUndo: true, keepCursor: true });
      },
      moveEvent(id, atMs) {
        const s = get();
        const at = Math.max(0, Math.round(atMs));
        const events = s.scenario.events.map((e) => (e.id === id ? { ...e, at } : e));
        apply({ ...s.scenario, events }, { recordUndo: !s.dragging, keepCursor: true });
      },
      nudgeEvent(id, deltaMs) {
        const e = get().scenario.events.find((x) => x.id === id);
        if (e) get().moveEvent(id, e.at + deltaMs);
      },
      beginDrag() {
        const s = get();
        set({ dragging: true, history: record(s.history, { scenario: s.scenario, herd: s.herd }) });
      },
      endDrag() {
        set({ dragging: false });
      },
      ...playbackActions(get, set, (st) => st.rangeEndMs),
      setHerd(patch) {
        const s = get();
        const next: HerdSettings = { ...s.herd };
        for (const [k, v] of Object.entries(patch) as [keyof HerdSettings, unknown][]) {
          if (k === 'strategies') {
            const list = (v as string[]).filter((x): x is BackoffStrategy => (BACKOFF_STRATEGIES as readonly string[]).includes(x));
            if (list.length === 0) {
              set({ error: { title: 'Pick at least one strategy for the herd plot', errors: [] } });
              return;
            }
            next.strategies = BACKOFF_STRATEGIES.filter((x) => list.includes(x));
          } else if (typeof v === 'number' && Number.isFinite(v)) next[k] = clamp(v, HERD_LIMITS[k]);
          else {
            set({ error: { title: `herd ${k}: must be a number`, errors: [] } });
            return;
          }
        }
        if (next.capMs < next.baseMs) next.capMs = next.baseMs;
        set({ herd: next, history: record(s.history, { scenario: s.scenario, herd: s.herd }), error: null });
      },
      undo() {
        const s = get();
        const r = undoHistory(s.history, { scenario: s.scenario, herd: s.herd });
        if (!r) return;
        set({ herd: r.value.herd });
        apply(r.value.scenario, { recordUndo: false, keepCursor: true });
        set({ history: r.history });
      },
      redo() {
        const s = get();
        const r = redoHistory(s.history, { scenario: s.scenario, herd: s.herd });
        if (!r) return;
        set({ herd: r.value.herd });
        apply(r.value.scenario, { recordUndo: false, keepCursor: true });
        set({ history: r.history });
      },
      applyLessonRow(overrides) {
        const s = get();
        const next = validate(withFlowOverrides(s.original, overrides));
        if (next) apply(next, { recordUndo: true, keepCursor: true });
      },
      reset() {
        const s = get();
        apply(s.original, { recordUndo: true, keepCursor: true });
      },
      clearError() {
        set({ error: null });
      },
      setError(error) {
        set({ error });
      },
    };
  });
}
