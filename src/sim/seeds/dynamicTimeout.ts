import { checkNumber } from './validate';

/**
 * Dynamic timeout, version 2, exactly as the retry-storm postmortem writes it (postmortem
 * "动态超时的智能算法", `get_dynamic_timeout`, "动态计算公式v2:引入非线性调节"):
 *
 *   loadFactor = min(1.5, (load / 80)²)            load = cluster load in percent
 *   timeout    = min(p99 × (1.2 + loadFactor), MAX_TIMEOUT)
 *
 * and the floor of the postmortem's own production checklist ("生产环境验证清单", 超时设计原则:
 * "初始值 ≥ 历史P99 × 1.5"). The two disagree: below (load / 80)² = 0.3, i.e. below
 * 80·√0.3 ≈ 43.82 % load, the formula gives less than p99 × 1.5. This module reports that
 * disagreement instead of hiding it. The postmortem names no value for MAX_TIMEOUT; its checklist
 * caps every timeout at 30 s ("绝对上限 ≤ 30秒"), so 30 000 ms is the default here.
 *
 * Differs from src/sim/resilience/timeouts.ts `dynamicTimeoutMs`, which takes the load factor as
 * an input and rounds up: here the load factor comes from the load and nothing is rounded.
 * Pure: no clock, no randomness.
 */

/** The checklist's absolute cap, used as MAX_TIMEOUT when none is given (postmortem: "绝对上限 ≤ 30秒"). */
export const CHECKLIST_CAP_MS = 30_000;
/** The checklist's floor multiplier: initial timeout ≥ p99 × 1.5. */
export const CHECKLIST_FLOOR_MULTIPLIER = 1.5;
/** The formula's base multiplier (1.2) and the load factor's ceiling (1.5). */
export const V2_BASE_MULTIPLIER = 1.2;
export const V2_LOAD_FACTOR_MAX = 1.5;
/** The load (percent) at which (load / 80)² = 1: "负载超过80%时指数增长". */
export const V2_KNEE_LOAD_PERCENT = 80;
/** The static timeout of the incident's original code (`timeout=10`, seconds). */
export const STATIC_TIMEOUT_MS = 10_000;

/**
 * `min(1.5, (loadPercent / 80)²)`. `loadPercent` is the cluster load in percent (0–100; values
 * above 100 are accepted, the factor saturates at 1.5 from 80·√1.5 ≈ 97.98 %).
 * Throws a RangeError naming `loadPercent` when it is negative or not finite.
 */
export function loadFactorV2(loadPercent: number): number {
  checkNumber('loadPercent', loadPercent, { min: 0 });
  return Math.min(V2_LOAD_FACTOR_MAX, (loadPercent / V2_KNEE_LOAD_PERCENT) ** 2);
}

/** Inputs of `dynamicTimeoutV2Ms`. */
export interface DynamicTimeoutInput {
  /** Historical p99 latency of this model and task type, ms (> 0). */
  p99Ms: number;
  /** Cluster load, percent (≥ 0). */
  loadPercent: number;
  /** MAX_TIMEOUT, ms (> 0); default 30 000 (the checklist's cap). */
  maxTimeoutMs?: number;
}

/**
 * `min(p99Ms × (1.2 + loadFactorV2(loadPercent)), maxTimeoutMs)` in ms, not rounded.
 * Throws a RangeError naming the field for a non-positive p99 or cap or a negative load.
 */
export function dynamicTimeoutV2Ms(input: DynamicTimeoutInput): number {
  const p99Ms = checkNumber('p99Ms', input.p99Ms, { min: Number.MIN_VALUE });
  const capMs = checkNumber('maxTimeoutMs', input.maxTimeoutMs ?? CHECKLIST_CAP_MS, { min: Number.MIN_VALUE });
  return Math.min(p99Ms * (V2_BASE_MULTIPLIER + loadFactorV2(input.loadPercent)), capMs);
}

/** The checklist floor `p99Ms × 1.5`, ms. */
export function checklistFloorMs(p99Ms: number): number {
  return checkNumber('p99Ms', p99Ms, { min: Number.MIN_VALUE }) * CHECKLIST_FLOOR_MULTIPLIER;
}

/**
 * The load (percent) below which the uncapped formula falls under the checklist floor:
 * 1.2 + (load/80)² = 1.5 ⇔ (load/80)² = 0.3 ⇔ load = 80·√0.3 ≈ 43.8178 %.
 */
export function floorCrossingLoadPercent(): number {
  return V2_KNEE_LOAD_PERCENT * Math.sqrt(CHECKLIST_FLOOR_MULTIPLIER - V2_BASE_MULTIPLIER);
}

/** How one point of the formula compares with the checklist floor. */
export interface FloorCheck {
  loadPercent: number;
  loadFactor: number;
  /** The v2 timeout, ms. */
  timeoutMs: number;
  /** p99 × 1.5, ms. */
  floorMs: number;
  /** True when timeoutMs < floorMs: the formula breaks the postmortem's own checklist. */
  belowFloor: boolean;
  /** floorMs − timeoutMs when below the floor, else 0. */
  shortfallMs: number;
  /** What put it below: the load factor (< 0.3), the cap (MAX_TIMEOUT < p99 × 1.5), or nothing. */
  cause: 'load-factor' | 'cap' | null;
}

/**
 * Compares the v2 timeout with the checklist floor at one load. `cause` is 'load-factor' when the
 * uncapped value is already under the floor (load < ≈43.82 %), 'cap' when only MAX_TIMEOUT puts
 * it there (MAX_TIMEOUT < p99 × 1.5, i.e. p99 > 20 s with the 30 s cap). Throws like
 * `dynamicTimeoutV2Ms`.
 */
export function checkAgainstFloor(input: DynamicTimeoutInput): FloorCheck {
  const loadFactor = loadFactorV2(input.loadPercent);
  const timeoutMs = dynamicTimeoutV2Ms(input);
  const floorMs = checklistFloorMs(input.p99Ms);
  const uncappedMs = input.p99Ms * (V2_BASE_MULTIPLIER + loadFactor);
  const belowFloor = timeoutMs < floorMs;
  return {
    loadPercent: input.loadPercent,
    loadFactor,
    timeoutMs,
    floorMs,
    belowFloor,
    shortfallMs: belowFloor ? floorMs - timeoutMs : 0,
    cause: !belowFloor ? null : uncappedMs < floorMs ? 'load-factor' : 'cap',
  };
}

/** One model class of the postmortem ("三个致命缺陷" 1: the static 10 s timeout ignores them). */
export interface ModelClass {
  id: string;
  /** What the postmortem says about it. */
  label: string;
  /** p99 latency, ms; a class given as a range is plotted at both ends. */
  p99Ms: readonly number[];
}

/**
 * The postmortem's two model classes: Claude-3 on long documents with p99 14 s, and GPT-4
 * generating code in 3–6 s (plotted with p99 = 3 000 and 6 000 ms; the text gives a range, not
 * a p99, so both ends are drawn).
 */
export const POSTMORTEM_MODEL_CLASSES: readonly ModelClass[] = [
  { id: 'long-documents', label: 'Claude-3, long documents: p99 14 s', p99Ms: [14_000] },
  { id: 'code-generation', label: 'GPT-4, code generation: 3–6 s', p99Ms: [3_000, 6_000] },
];

/** One point of the timeout-against-load plot. */
export interface TimeoutPlotPoint {
  loadPercent: number;
  timeoutMs: number;
  floorMs: number;
  belowFloor: boolean;
}

/** One line of the plot: a model class at one p99, or the static timeout. */
export interface TimeoutPlotSeries {
  id: string;
  label: string;
  p99Ms: number | null;
  points: TimeoutPlotPoint[];
}

/** Options of `timeoutAgainstLoad`. */
export interface TimeoutPlotOptions {
  /** Loads to sample, percent; default 0, 5, …, 100. */
  loadsPercent?: readonly number[];
  /** MAX_TIMEOUT, ms; default 30 000. */
  maxTimeoutMs?: number;
  /** The static timeout drawn beside them, ms; default 10 000 (the incident's `timeout=10`). */
  staticTimeoutMs?: number;
  /** Model classes; default the postmortem's two. */
  classes?: readonly ModelClass[];
}

/**
 * Data for the plot of timeout against load: one series per model class and p99 (ids
 * `<class>@<p99Ms>`), each point with its checklist floor and whether it is below it, and a
 * `static` series at the static timeout (its `floorMs` is the floor of the first class's first
 * p99, for reference; `belowFloor` compares the static timeout with it). Pure; throws like
 * `dynamicTimeoutV2Ms`.
 */
export function timeoutAgainstLoad(options: TimeoutPlotOptions = {}): TimeoutPlotSeries[] {
  const loads = options.loadsPercent ?? Array.from({ length: 21 }, (_, i) => i * 5);
  const maxTimeoutMs = options.maxTimeoutMs ?? CHECKLIST_CAP_MS;
  const staticMs = checkNumber('staticTimeoutMs', options.staticTimeoutMs ?? STATIC_TIMEOUT_MS, { min: Number.MIN_VALUE });
  const classes = options.classes ?? POSTMORTEM_MODEL_CLASSES;
  const series: TimeoutPlotSeries[] = [];
  for (const c of classes) {
    for (const p99Ms of c.p99Ms) {
      series.push({
        id: `${c.id}@${p99Ms}`,
        label: `${c.label} (p99 ${p99Ms} ms)`,
        p99Ms,
        points: loads.map((loadPercent) => {
          const f = checkAgainstFloor({ p99Ms, loadPercent, maxTimeoutMs });
          return { loadPercent, timeoutMs: f.timeoutMs, floorMs: f.floorMs, belowFloor: f.belowFloor };
        }),
      });
    }
  }
  const refFloor = classes.length > 0 && classes[0].p99Ms.length > 0 ? checklistFloorMs(classes[0].p99Ms[0]) : staticMs;
  series.push({
    id: 'static',
    label: `static ${staticMs} ms timeout`,
    p99Ms: null,
    points: loads.map((loadPercent) => ({ loadPercent, timeoutMs: staticMs, floorMs: refFloor, belowFloor: staticMs < refFloor })),
  });
  return series;
}

/**
 * The loads (percent) at which the v2 timeout for `p99Ms` is below the checklist floor: always
 * `[0, untilPercent)`. `untilPercent` is 80·√0.3 ≈ 43.82 when MAX_TIMEOUT ≥ p99 × 1.5, and
 * Infinity when the cap itself is under the floor (then no load satisfies the checklist).
 * Throws like `dynamicTimeoutV2Ms`.
 */
export function loadsBelowFloor(p99Ms: number, maxTimeoutMs: number = CHECKLIST_CAP_MS): { fromPercent: number; untilPercent: number; cause: 'load-factor' | 'cap' } {
  const floor = checklistFloorMs(p99Ms);
  const cap = checkNumber('maxTimeoutMs', maxTimeoutMs, { min: Number.MIN_VALUE });
  return cap < floor ? { fromPercent: 0, untilPercent: Number.POSITIVE_INFINITY, cause: 'cap' } : { fromPercent: 0, untilPercent: floorCrossingLoadPercent(), cause: 'load-factor' };
}
