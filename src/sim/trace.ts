import { CoreRun, NONE, scriptedEntries, sameScripted, stepEntry, type Checkpoint, type CoreModel, type FirstViolation } from './core';
import { StepColumns } from './stepColumns';
import type { Ignored, QueueEntry, Scenario, Step, Trace, Violation, WireEffect } from './types';

/**
 * Recorders of the checkpointed core (`core.ts`): the fast path and the full-steps trace as
 * `replayCore`, and the seekable trace — the one owner of checkpoints, through which seek, scrub,
 * notes and fork-on-edit go.
 */

/** Result of `replayCore` in 'effects' or 'steps' mode: the shape `replay` (`replay.ts`) has always returned. */
export type CoreReplayResult<V, O> = Trace<V, O> & { truncated: boolean; stepCount: number; effects: WireEffect[] };

/**
 * Replays with the core on the fast path (`keep: 'effects'`: no steps, no notes, no ignored items)
 * or with the full trace (`keep: 'steps'`: every step with a frozen state view and its note).
 * Same scenario → same result as the old engine (proven against `oracle/` in the tests).
 */
export function replayCore<C, S, V, O, T>(
  model: CoreModel<C, S, V, O, T>,
  scenario: Scenario,
  options: { keep?: 'steps' | 'effects'; maxSteps?: number } = {},
): CoreReplayResult<V, O> {
  const keep = options.keep ?? 'steps';
  const maxSteps = options.maxSteps ?? 2_000_000;
  const run = CoreRun.start(model, scenario, scriptedEntries(scenario, model.scriptedRank), keep);
  const initial = model.view(run.state);
  const steps: Step<V>[] = [];
  let truncated = false;
  const effects = run.effects;
  for (;;) {
    if (run.stepCount >= maxSteps) {
      truncated = run.peek() !== undefined;
      break;
    }
    const before = effects.length;
    if (!run.step()) break;
    if (keep === 'steps') {
      const entry = run.stepEntry as QueueEntry;
      steps.push({
        index: run.stepCount - 1,
        at: entry.at,
        entry: stepEntry(entry),
        state: model.view(run.state),
        effects: effects.length === before ? NONE : effects.slice(before),
        ignored: run.stepIgnored,
        why: run.stepWhy,
        rule: run.stepRule,
        violations: run.stepViolations,
      });
    }
  }
  return {
    scenario,
    initial,
    steps,
    outcome: model.outcome(run.state, run.lastAt),
    stepCount: run.stepCount,
    effects,
    invariants: run.invariantResults(),
    endAt: run.lastAt,
    truncated,
  };
}

/**
 * Default steps between checkpoints (K) of a seekable trace for runs no page scrubs (the CLI, the
 * bench; the pages ask for 64). A checkpoint copies every entity changed since the last one plus
 * the pending timers (races, 100 concurrent calls: ~100 requests each time), so at K = 512 the
 * checkpoints cost a quarter to a third of the step loop; at 2,048 they cost a quarter of that and
 * a seek re-runs < 2,048 steps (≈ 1–2 ms at the fast path's speed, under one frame).
 */
export const DEFAULT_CHECKPOINT_EVERY = 2048;

/** Options of `replaySeekable`. */
export interface SeekableOptions {
  /** Steps between full checkpoints (K); `stateAt` re-runs fewer than K steps. Default `DEFAULT_CHECKPOINT_EVERY` (2,048). */
  checkpointEvery?: number;
  /** Step limit, as in `replay`. Default 2,000,000. */
  maxSteps?: number;
  /** Called after each checkpoint is taken (e.g. to sample memory in the bench). */
  onCheckpoint?(step: number): void;
  /**
   * Also keep each step's entry record (`entryOf`) and, when `keyKind` is given, the first entity
   * of that kind the step touched (`keyOf`): what a page draws per step without its state. Off by
   * default (the CLI and the bench keep neither). A fork keeps the setting of its base.
   */
  keepEntries?: boolean;
  /** Entity kind whose first touched id `keyOf` returns (races: 'request'); needs `keepEntries`. */
  keyKind?: string;
}

/**
 * A trace that keeps per-step metadata (time, entry, effects, ignored, violations, rule) and a
 * checkpoint every K steps; states and notes are rebuilt from the nearest checkpoint on demand.
 * Immutable from the outside; `fork` makes a new trace for an edited scenario.
 */
export class SeekableTrace<C, S, V, O, T> {
  readonly initial: V;
  readonly outcome: O;
  readonly invariants: { name: string; description: string; firstViolation: FirstViolation | null }[];
  readonly effects: WireEffect[];
  readonly stepCount: number;
  readonly endAt: number;
  readonly truncated: boolean;
  readonly checkpointEvery: number;
  /** How many steps this trace took over from the trace it was forked from (0 when replayed whole). */
  readonly reusedSteps: number;
  /** The scenario's scripted entries in queue order; undefined until first needed when the replay streamed them (`scripted`). */
  private scriptedList: readonly QueueEntry[] | undefined;
  /** Per-step time, effects end, rule, ignored events and violations (`stepColumns.ts`); entries are rebuilt by re-running from a checkpoint (unless `keepEntries`). */
  private readonly columns: StepColumns;
  private readonly checkpoints: Checkpoint<V>[];
  /** Per-step entry records and first touched ids (only with `keepEntries`). */
  private readonly entries: Step<V>['entry'][] | undefined;
  private readonly keys: (string | null)[] | undefined;
  private readonly keyKind: string | undefined;
  private allNotes: string[] | undefined;
  /** Notes of the steps before the checkpoint this trace was forked at (equal by construction), when its base had built them. */
  private readonly notePrefix: { notes: string[]; checkpoint: number } | undefined;
  private allSteps: Step<V>[] | undefined;
  /** A run positioned after `cached.run.stepCount` steps, reused by forward scrubbing. */
  private cached: CoreRun<C, S, V, O, T> | undefined;

  private constructor(
    readonly model: CoreModel<C, S, V, O, T>,
    readonly scenario: Scenario,
    options: SeekableOptions,
    base?: { from: SeekableTrace<C, S, V, O, T>; checkpoint: number; scripted: readonly QueueEntry[] },
  ) {
    const K = (this.checkpointEvery = Math.max(1, Math.floor(options.checkpointEvery ?? base?.from.checkpointEvery ?? DEFAULT_CHECKPOINT_EVERY)));
    const maxSteps = options.maxSteps ?? 2_000_000;
    const keepEntries = options.keepEntries ?? base?.from.entries !== undefined;
    this.keyKind = options.keyKind ?? base?.from.keyKind;
    let run: CoreRun<C, S, V, O, T>;
    if (base) {
      const from = base.from;
      const cp = from.checkpoints[base.checkpoint];
      const n = cp.step;
      this.scriptedList = base.scripted;
      this.columns = new StepColumns({ from: from.columns, steps: n });
      this.checkpoints = from.checkpoints.slice(0, base.checkpoint + 1);
      this.entries = keepEntries ? (from.entries?.slice(0, n) ?? undefined) : undefined;
      this.notePrefix = from.allNotes !== undefined ? { notes: from.allNotes.slice(0, n), checkpoint: base.checkpoint } : undefined;
      this.keys = keepEntries ? (from.keys?.slice(0, n) ?? undefined) : undefined;
      this.initial = from.initial;
      this.reusedSteps = n;
      run = CoreRun.resume(this.model, this.scripted, cp, from.effects.slice(0, cp.effects), 'seekable');
    } else {
      this.columns = new StepColumns();
      this.checkpoints = [];
      this.entries = keepEntries ? [] : undefined;
      this.keys = keepEntries ? [] : undefined;
      this.notePrefix = undefined;
      this.reusedSteps = 0;
      // Events listed in queue order are streamed: their entries are built as the run reaches them,
      // not 100,000 kept alive (and copied by the scavenger) for the whole replay.
      const streamed = CoreRun.startStreaming(this.model, scenario, 'seekable');
      this.scriptedList = streamed === undefined ? scriptedEntries(scenario, this.model.scriptedRank) : undefined;
      run = streamed ?? CoreRun.start(this.model, scenario, this.scriptedList as readonly QueueEntry[], 'seekable');
      this.initial = this.model.view(run.state);
      this.checkpoints.push(run.checkpoint());
      options.onCheckpoint?.(0);
    }
    let truncated = false;
    const { columns, entries, keys, keyKind } = this;
    for (;;) {
      if (run.stepCount >= maxSteps) {
        truncated = run.peek() !== undefined;
        break;
      }
      if (!run.step()) break;
      columns.record(run.stepCount - 1, run.lastAt, run.effects.length, run.stepRule, run.stepIgnored, run.stepViolations);
      if (entries !== undefined && keys !== undefined) {
        entries.push(stepEntry(run.stepEntry as QueueEntry));
        keys.push(keyKind === undefined ? null : (this.model.touched(run.state, keyKind)[0] ?? null));
      }
      if (run.stepCount % K === 0) {
        this.checkpoints.push(run.checkpoint());
        options.onCheckpoint?.(run.stepCount);
      }
    }
    this.truncated = truncated;
    this.stepCount = run.stepCount;
    columns.seal(run.stepCount);
    this.endAt = run.lastAt;
    this.effects = run.effects;
    this.outcome = this.model.outcome(run.state, run.lastAt);
    this.invariants = run.invariantResults();
  }

  /** The scenario's scripted entries in queue order (`scriptedEntries`), built on first use after a streamed replay: what a resumed run or a fork reads. */
  private get scripted(): readonly QueueEntry[] {
    return (this.scriptedList ??= scriptedEntries(this.scenario, this.model.scriptedRank));
  }

  /** Replays `scenario` keeping a seekable trace. Throws only for model bugs (a timer in the past). */
  static replay<C, S, V, O, T>(model: CoreModel<C, S, V, O, T>, scenario: Scenario, options: SeekableOptions = {}): SeekableTrace<C, S, V, O, T> {
    return new SeekableTrace(model, scenario, options);
  }

  /** Number of checkpoints kept (the first is the state after `init`). */
  get checkpointCount(): number {
    return this.checkpoints.length;
  }

  /** Time of step `i` (ms). */
  atOf(i: number): number {
    return this.columns.atOf(i);
  }

  /** Index of the last step with time ≤ `atMs`, or -1 (binary search). */
  indexAt(atMs: number): number {
    let lo = 0;
    let hi = this.stepCount - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.columns.atOf(mid) <= atMs) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The wire effects of step `i`. */
  effectsOf(i: number): WireEffect[] {
    const start = i === 0 ? this.checkpoints[0].effects : this.columns.effectEndOf(i - 1);
    const end = this.columns.effectEndOf(i);
    return end === start ? NONE : this.effects.slice(start, end);
  }

  /** Events of step `i` ignored by a side (empty when none). */
  ignoredOf(i: number): Ignored[] {
    return this.columns.ignoredOf(i);
  }

  /** Invariants step `i` broke (empty when none). */
  violationsOf(i: number): Violation[] {
    return this.columns.violationsOf(i);
  }

  /** The spec rule step `i` applied, if any. */
  ruleOf(i: number): string | undefined {
    return this.columns.ruleOf(i);
  }

  /** The entry record of step `i`: kept with `keepEntries`, else rebuilt by re-running < K steps. */
  entryOf(i: number): Step<V>['entry'] {
    return this.entries?.[i] ?? this.stepAt(i).entry;
  }

  /** The first entity of `keyKind` step `i` touched, or null (none, or no `keyKind` kept). */
  keyOf(i: number): string | null {
    return this.keys?.[i] ?? null;
  }

  /** The note ("why") of step `i`, built now by re-running < K steps from a checkpoint. */
  noteOf(i: number): string {
    return this.allNotes?.[i] ?? this.stepAt(i).why;
  }

  /**
   * Every step's note in one pass (cached): for views that list them all. A fork whose base had
   * built its notes re-runs only from the checkpoint it was forked at.
   */
  notes(): string[] {
    if (this.allNotes === undefined) {
      const prefix = this.notePrefix;
      const out: string[] = prefix ? prefix.notes.slice() : [];
      const run = CoreRun.resume(this.model, this.scripted, this.checkpoints[prefix?.checkpoint ?? 0], [], 'steps');
      for (let i = out.length; i < this.stepCount && run.step(); i++) out.push(run.stepWhy);
      this.allNotes = out;
    }
    return this.allNotes;
  }

  /**
   * Every step in the historic shape, built once on first read (`toSteps`, cached): the trace then
   * also reads as a `ReplayResult`, for code not yet moved to the accessors. O(steps × entities).
   */
  get steps(): Step<V>[] {
    this.allSteps ??= this.toSteps();
    return this.allSteps;
  }

  /** A run positioned after `done` steps: the cached run when it is behind by < K, else a checkpoint. */
  private runAfter(done: number, notes: boolean): CoreRun<C, S, V, O, T> {
    const c = this.cached;
    let run: CoreRun<C, S, V, O, T>;
    if (!notes && c !== undefined && c.stepCount <= done && done - c.stepCount < this.checkpointEvery) run = c;
    else {
      const cp = this.checkpoints[Math.min(Math.floor(done / this.checkpointEvery), this.checkpoints.length - 1)];
      run = CoreRun.resume(this.model, this.scripted, cp, [], notes ? 'steps' : 'effects');
    }
    while (run.stepCount < done && run.step()) {
      /* re-run < K steps */
    }
    if (!notes) this.cached = run;
    return run;
  }

  /** The state view after step `i` (`i` = -1: the initial state). Re-runs < K steps. RangeError outside the trace. */
  stateAt(i: number): V {
    if (!Number.isInteger(i) || i < -1 || i >= this.stepCount) throw new RangeError(`stateAt: step ${i} is outside 0…${this.stepCount - 1} (or -1 for the initial state)`);
    if (i === -1) return this.initial;
    return this.model.view(this.runAfter(i + 1, false).state);
  }

  /** The state view when the playhead is at `atMs` (after every step at or before it). */
  stateAtMs(atMs: number): V {
    return this.stateAt(this.indexAt(atMs));
  }

  /** The outcome when the playhead is after step `i` (-1: before any step). */
  outcomeAt(i: number): O {
    if (i === -1) return this.model.outcome(this.model.thaw(this.initial), 0);
    return this.model.outcome(this.runAfter(i + 1, false).state, this.columns.atOf(i));
  }

  /** Step `i` in the historic `Step` shape; its note is built now by re-running from a checkpoint. */
  stepAt(i: number): Step<V> {
    if (!Number.isInteger(i) || i < 0 || i >= this.stepCount) throw new RangeError(`stepAt: step ${i} is outside 0…${this.stepCount - 1}`);
    const run = this.runAfter(i, true);
    run.step();
    const entry = run.stepEntry as QueueEntry;
    return {
      index: i,
      at: entry.at,
      entry: stepEntry(entry),
      state: this.model.view(run.state),
      effects: this.effectsOf(i),
      ignored: this.columns.ignoredOf(i),
      why: run.stepWhy,
      rule: this.ruleOf(i),
      violations: this.columns.violationsOf(i),
    };
  }

  /**
   * The trace of `edited`: when its config, seed and number of events are unchanged, it resumes
   * from the last checkpoint taken before the first time the edit changes (nothing before it can
   * differ), else it replays whole. Equal to `SeekableTrace.replay(model, edited)` in every result.
   */
  fork(edited: Scenario, options: SeekableOptions = {}): SeekableTrace<C, S, V, O, T> {
    const old = this.scenario;
    if (edited.seed !== old.seed || edited.events.length !== old.events.length || JSON.stringify(edited.config) !== JSON.stringify(old.config)) {
      // A new run, with this trace's settings (a page's trace keeps its entries and keys after a config edit or a new link).
      return new SeekableTrace(this.model, edited, { checkpointEvery: this.checkpointEvery, keepEntries: this.entries !== undefined, keyKind: this.keyKind, ...options });
    }
    const scripted = scriptedEntries(edited, this.model.scriptedRank);
    let d = 0;
    while (d < scripted.length && sameScripted(scripted[d], this.scripted[d])) d++;
    if (d === scripted.length && !this.truncated) return this;
    const t = d === scripted.length ? Infinity : Math.min(scripted[d].at, this.scripted[d].at);
    let c = this.checkpoints.length - 1;
    while (c > 0 && !(this.checkpoints[c].now < t && this.checkpoints[c].cursor <= d)) c--;
    return new SeekableTrace(this.model, edited, { checkpointEvery: this.checkpointEvery, ...options }, { from: this, checkpoint: c, scripted });
  }

  /** Every step in the historic shape (O(steps × entities): for compatibility and tests only). */
  toSteps(): Step<V>[] {
    const out: Step<V>[] = [];
    const run = CoreRun.resume(this.model, this.scripted, this.checkpoints[0], [], 'steps');
    for (let i = 0; i < this.stepCount && run.step(); i++) {
      const entry = run.stepEntry as QueueEntry;
      out.push({ index: i, at: entry.at, entry: stepEntry(entry), state: this.model.view(run.state), effects: this.effectsOf(i), ignored: this.columns.ignoredOf(i), why: run.stepWhy, rule: this.ruleOf(i), violations: this.columns.violationsOf(i) });
    }
    return out;
  }
}
