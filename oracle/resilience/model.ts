// TEST-ONLY ORACLE: verbatim copy of src/sim/resilience/model.ts at 377217e (import paths adjusted). Never import from app code.
import type { ApplyContext, Invariant, Model, ScriptedEvent, Step } from '../../src/sim/types';
import type { ResilienceConfig, ResilienceEvent } from '../../src/sim/resilience/schema';
import { applyTasksScripted, applyTasksTimer, initTasks, tasksInvariants, tasksOutcome, TASKS_RANK, type TasksOutcome, type TasksState, type TasksTimer } from './tasks';
import { applyBreakerScripted, applyBreakerTimer, breakerInvariants, breakerOutcome, initBreaker, BREAKER_RANK, type BreakerOutcome, type BreakerState, type BreakerTimer } from './breaker';
import { applyStormScripted, applyStormTimer, initStorm, stormInvariants, stormOutcome, STORM_RANK, type StormOutcome, type StormState, type StormTimer } from './storm';

/**
 * The resilience lab's model: one `Model` that runs the mechanism named by `config.mechanism`
 * (durable tasks, breaker + retry, retry storm). Each mechanism keeps its own state, timers,
 * outcome and invariants; invariants of the other mechanisms hold trivially.
 */

export type ResilienceState = TasksState | BreakerState | StormState;
export type ResilienceTimer = TasksTimer | BreakerTimer | StormTimer;
export type ResilienceOutcome = TasksOutcome | BreakerOutcome | StormOutcome;

/**
 * Scripted events run at rank 2 in every mechanism (`TASKS_RANK`, `BREAKER_RANK`, `STORM_RANK` all
 * say so; a test checks it): after arrivals, results and deadlines at the same ms.
 */
export const SCRIPTED_RANK = 2;
export const MECHANISM_RANKS = { tasks: TASKS_RANK, breaker: BREAKER_RANK, storm: STORM_RANK } as const;

function only<S extends ResilienceState>(mechanism: S['mechanism'], list: Invariant<S>[]): Invariant<ResilienceState>[] {
  return list.map((inv) => ({
    name: inv.name,
    description: `${mechanism}: ${inv.description}`,
    check: (state: ResilienceState, step: Step<ResilienceState>) => (state.mechanism === mechanism ? inv.check(state as S, step as unknown as Step<S>) : null),
  }));
}

/** The resilience model (see the module docstring). */
export const resilienceModel: Model<ResilienceConfig, ResilienceState, ResilienceOutcome, ResilienceTimer> = {
  lab: 'resilience',
  tieRule: [
    { rank: 0, name: 'breaker reset timer / upstream end or receipt', why: 'A breaker goes half-open, and upstream work ends, before anything else at the same millisecond sees it.' },
    { rank: 1, name: 'arrivals, attempt results, timeouts', why: 'Messages and results that arrive at a millisecond are seen by the scripted actions of that millisecond.' },
    { rank: 2, name: 'scripted actions', why: 'In the scenario\'s list order; drag or reorder them to change who wins.' },
    { rank: 3, name: 'retries and polls', why: 'A retry or poll due at a millisecond goes after everything that millisecond decided.' },
  ],
  scriptedRank: () => SCRIPTED_RANK,
  init(config) {
    if (config.mechanism === 'tasks') return initTasks(config);
    if (config.mechanism === 'breaker') return initBreaker(config);
    return initStorm(config);
  },
  applyScripted(state, event: ScriptedEvent, ctx) {
    const ev = event as unknown as ResilienceEvent;
    if (state.mechanism === 'tasks') return applyTasksScripted(state, ev, ctx as ApplyContext<TasksTimer>);
    if (state.mechanism === 'breaker') return applyBreakerScripted(state, ev, ctx as ApplyContext<BreakerTimer>);
    return applyStormScripted(state, ev, ctx as ApplyContext<StormTimer>);
  },
  applyTimer(state, payload, ctx) {
    if (state.mechanism === 'tasks') return applyTasksTimer(state, payload as TasksTimer, ctx as ApplyContext<TasksTimer>);
    if (state.mechanism === 'breaker') return applyBreakerTimer(state, payload as BreakerTimer, ctx as ApplyContext<BreakerTimer>);
    return applyStormTimer(state, payload as StormTimer, ctx as ApplyContext<StormTimer>);
  },
  outcome(state) {
    if (state.mechanism === 'tasks') return tasksOutcome(state);
    if (state.mechanism === 'breaker') return breakerOutcome(state);
    return stormOutcome(state);
  },
  // Pure calls, so bundlers can drop the model where only the schemas are used.
  invariants: [.../* @__PURE__ */ only<TasksState>('tasks', tasksInvariants), .../* @__PURE__ */ only<BreakerState>('breaker', breakerInvariants), .../* @__PURE__ */ only<StormState>('storm', stormInvariants)],
};
