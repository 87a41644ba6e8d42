/**
 * Durable tasks and `tasks/cancel` under both revisions (rules and citations in `tasksTypes.ts`):
 * the state and outcome types, the scripted events (`tasksScripted.ts`), timers and deliveries
 * (`tasksTimer.ts`), the shared wire steps (`tasksOps.ts`), the outcome and invariants
 * (`tasksOutcome.ts`), several tasks in one scenario (`tasksMany.ts`). Each mutates one
 * `TasksCore` in place on the checkpointed core.
 */
export * from './tasksTypes';
export { applyTasksScripted } from './tasksScripted';
export { applyTasksTimer } from './tasksTimer';
export { applyTasksScriptedAny, applyTasksTimerAny, eachTask, FIRST_TASK } from './tasksMany';
export { tasksInvariants, tasksOutcome } from './tasksOutcome';
