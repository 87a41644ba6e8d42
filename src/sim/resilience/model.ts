import type { CoreContext, CoreModel, EntityInvariant } from '../core';
import { NONE, oneStepMethods } from '../core';
import type { Invariant, Model, ScriptedEvent } from '../types';
import type { ResilienceConfig, ResilienceEvent } from './schema';
import type { MechanismCheck } from './mechanism';
// Imported from the implementation files, not the barrels (a barrel's re-export is a getter call per use in some module loaders).
import { initTasks, tasksThaw, tasksView, TASKS_RANK, type TasksCore, type TasksOutcome, type TasksState, type TasksTimer } from './tasksTypes';
import { applyTasksScriptedAny, applyTasksTimerAny } from './tasksMany';
import { tasksInvariants, tasksOutcome } from './tasksOutcome';
import { breakerThaw, breakerView, initBreakerCore, BREAKER_RANK, type BreakerCore, type BreakerOutcome, type BreakerState, type BreakerTimer } from './breakerTypes';
import { applyBreakerScripted, applyBreakerTimer } from './breakerCalls';
import { breakerInvariants, breakerInvariantsSurelyHold, breakerOutcome } from './breakerOutcome';
import { initStorm, stormThaw, stormView, STORM_RANK, type StormCore, type StormOutcome, type StormState, type StormTimer } from './stormTypes';
import { applyStormScripted, applyStormTimer } from './stormRules';
import { stormInvariants, stormOutcome } from './stormOutcome';

/**
 * The resilience lab's model: runs the mechanism named by `config.mechanism` (durable tasks,
 * breaker + retry, retry storm). Each mechanism keeps its own state, timers, outcome and
 * invariants; invariants of the other mechanisms hold trivially.
 *
 * On the checkpointed core (`resilienceCore`, issue 10): the hot loop mutates one mechanism state
 * in place (`TasksCore`, `BreakerCore`, `StormCore`); traces, checkpoints and `stateAt` hold
 * immutable views in the historic `ResilienceState` shapes. Each mechanism is one entity — 'task',
 * 'breaker' or 'action' (id "1") — touched by every step, and its invariants read that entity, so
 * they run after every step of their own mechanism and never after another's.
 */

export type ResilienceState = TasksState | BreakerState | StormState;
export type ResilienceTimer = TasksTimer | BreakerTimer | StormTimer;
export type ResilienceOutcome = TasksOutcome | BreakerOutcome | StormOutcome;
/** The mutable state of the core's hot loop. */
export type ResilienceCore = TasksCore | BreakerCore | StormCore;

/**
 * Scripted events run at rank 2 in every mechanism (`TASKS_RANK`, `BREAKER_RANK`, `STORM_RANK` all
 * say so; a test checks it): after arrivals, results and deadlines at the same ms.
 */
export const SCRIPTED_RANK = 2;
export const MECHANISM_RANKS = { tasks: TASKS_RANK, breaker: BREAKER_RANK, storm: STORM_RANK } as const;

/** The entity kind of each mechanism (its whole state). */
export const MECHANISM_ENTITY = { tasks: 'task', breaker: 'breaker', storm: 'action' } as const;
const ONE: readonly string[] = Object.freeze(['1']);

const TIE_RULE = [
  { rank: 0, name: 'breaker reset timer / upstream end or receipt', why: 'A breaker goes half-open, and upstream work ends, before anything else at the same millisecond sees it.' },
  { rank: 1, name: 'arrivals, attempt results, timeouts', why: 'Messages and results that arrive at a millisecond are seen by the scripted actions of that millisecond.' },
  { rank: 2, name: 'scripted actions', why: 'In the scenario\'s list order; drag or reorder them to change who wins.' },
  { rank: 3, name: 'retries and polls', why: 'A retry or poll due at a millisecond goes after everything that millisecond decided.' },
];

function entityInvariants<S>(mechanism: keyof typeof MECHANISM_ENTITY, list: MechanismCheck<S>[]): EntityInvariant<ResilienceCore>[] {
  // The check itself (its entity is the mechanism's state; the core's other arguments go unread): no wrapper call per step.
  return list.map((inv) => ({ name: inv.name, description: `${mechanism}: ${inv.description}`, reads: MECHANISM_ENTITY[mechanism], check: inv.check as EntityInvariant<ResilienceCore>['check'] }));
}

function historicInvariants<S>(mechanism: ResilienceState['mechanism'], list: MechanismCheck<S>[]): Invariant<ResilienceState>[] {
  return list.map((inv) => ({ name: inv.name, description: `${mechanism}: ${inv.description}`, check: (state: ResilienceState) => (state.mechanism === mechanism ? inv.check(state as S) : null) }));
}

function applyScripted(state: ResilienceCore, event: ScriptedEvent, ctx: CoreContext<ResilienceTimer>): void {
  const ev = event as unknown as ResilienceEvent;
  if (state.mechanism === 'tasks') return applyTasksScriptedAny(state, ev, ctx as CoreContext<TasksTimer>);
  if (state.mechanism === 'breaker') return applyBreakerScripted(state, ev, ctx as CoreContext<BreakerTimer>);
  return applyStormScripted(state, ev, ctx as CoreContext<StormTimer>);
}

function applyTimer(state: ResilienceCore, payload: ResilienceTimer, ctx: CoreContext<ResilienceTimer>): void {
  if (state.mechanism === 'tasks') return applyTasksTimerAny(state, payload as TasksTimer, ctx as CoreContext<TasksTimer>);
  if (state.mechanism === 'breaker') return applyBreakerTimer(state, payload as BreakerTimer, ctx as CoreContext<BreakerTimer>);
  return applyStormTimer(state, payload as StormTimer, ctx as CoreContext<StormTimer>);
}

function outcome(state: ResilienceState | ResilienceCore): ResilienceOutcome {
  if (state.mechanism === 'tasks') return tasksOutcome(state);
  if (state.mechanism === 'breaker') return breakerOutcome(state);
  return stormOutcome(state);
}

function view(state: ResilienceCore): ResilienceState {
  if (state.mechanism === 'tasks') return tasksView(state);
  if (state.mechanism === 'breaker') return breakerView(state);
  return stormView(state);
}

function thaw(v: ResilienceState): ResilienceCore {
  if (v.mechanism === 'tasks') return tasksThaw(v);
  if (v.mechanism === 'breaker') return breakerThaw(v);
  return stormThaw(v);
}

function init(config: ResilienceConfig): ResilienceCore {
  if (config.mechanism === 'tasks') return tasksThaw(initTasks(config));
  if (config.mechanism === 'breaker') return initBreakerCore(config);
  return stormThaw(initStorm(config));
}

/** The resilience model on the checkpointed core (see the module docstring). */
export const resilienceCore: CoreModel<ResilienceConfig, ResilienceCore, ResilienceState, ResilienceOutcome, ResilienceTimer> = {
  lab: 'resilience',
  tieRule: TIE_RULE,
  scriptedRank: () => SCRIPTED_RANK,
  init,
  applyScripted,
  applyTimer,
  touched: (state, kind) => (MECHANISM_ENTITY[state.mechanism] === kind ? ONE : NONE),
  entity: (state, kind) => (MECHANISM_ENTITY[state.mechanism] === kind ? state : undefined),
  // The breaker's pre-check (`breakerInvariantsSurelyHold`); the other mechanisms always run their checks.
  surelyHolds: (kind, entity) => kind === 'breaker' && breakerInvariantsSurelyHold(entity as BreakerCore),
  // Pure calls, so bundlers can drop the model where only the schemas are used.
  invariants: [.../* @__PURE__ */ entityInvariants('tasks', tasksInvariants), .../* @__PURE__ */ entityInvariants('breaker', breakerInvariants), .../* @__PURE__ */ entityInvariants('storm', stormInvariants)],
  view,
  thaw,
  outcome: (state) => outcome(state),
};

/**
 * The resilience lab model. `replay(resilienceModel, …)` runs it on the checkpointed core
 * (`core`); the one-step methods keep the historic immutable interface (each call copies the
 * state, so they are for tests and tools, not for the hot loop).
 */
export const resilienceModel: Model<ResilienceConfig, ResilienceState, ResilienceOutcome, ResilienceTimer> & { core: typeof resilienceCore } = {
  lab: 'resilience',
  tieRule: TIE_RULE,
  scriptedRank: () => SCRIPTED_RANK,
  init: (config) => view(init(config)),
  ...oneStepMethods(thaw, view, applyScripted, applyTimer),
  outcome: (state) => outcome(state),
  invariants: [.../* @__PURE__ */ historicInvariants('tasks', tasksInvariants), .../* @__PURE__ */ historicInvariants('breaker', breakerInvariants), .../* @__PURE__ */ historicInvariants('storm', stormInvariants)],
  core: resilienceCore,
};
