import type { ResilienceEvent } from './schema';
import { initTasks, type TaskSlot, type TasksCore, type TasksTimer } from './tasksTypes';
import { applyTasksScripted } from './tasksScripted';
import { applyTasksTimer } from './tasksTimer';
import type { TasksCtx } from './tasksOps';

/**
 * Several tasks in one scenario (issue 24 item 4, MCPJam inspector PR#3518: a client polling
 * tasks whose servers ask for different intervals). The first task is the state's own `server` /
 * `client` ("task", as in every scenario before); an event naming another `task` key steps that
 * key's `TaskSlot` (`more`, created by its first `call`) through the same rules, with a cursor of
 * the `TasksCore` shape over the slot and a context that tags its timers (`task`) and wire effects
 * (`requestKey`) with the key and names the task in its notes. The slot takes its request ids from
 * the first task's counter, so every id in the session stays unique. Pure: no clock, no randomness
 * beyond the context's.
 */

/** The key of the first task (the outcome's historic row, the events' default). */
export const FIRST_TASK = 'task';

/** A context that runs `ctx` for the further task `key`. */
function slotContext(ctx: TasksCtx, key: string): TasksCtx {
  return {
    get now() {
      return ctx.now;
    },
    random: () => ctx.random(),
    schedule: (at, rank, actor, label, payload) => ctx.schedule(at, rank, actor, `${key}: ${label}`, { ...payload, task: key }),
    cancel: (handle) => ctx.cancel(handle),
    emit: (effect) => ctx.emit({ ...effect, requestKey: key }),
    emitWire: (from, transport, message, http, arrivesAt) => ctx.emitWire(from, transport, message, http, arrivesAt, key),
    get keepsIgnored() {
      return ctx.keepsIgnored;
    },
    get keepsNotes() {
      return ctx.keepsNotes;
    },
    ignore: (item) => ctx.ignore(item),
    why: (text, rule) => ctx.why(typeof text === 'function' ? () => `[${key}] ${text()}` : `[${key}] ${text}`, rule),
  };
}

/** Runs `step` on slot `slot` of `root` (a cursor over it, request ids from the first task's counter). */
function onSlot(root: TasksCore, slot: TaskSlot, ctx: TasksCtx, step: (s: TasksCore, ctx: TasksCtx) => void): void {
  slot.client.nextRequest = root.client.nextRequest;
  step({ mechanism: 'tasks', config: root.config, server: slot.server, client: slot.client, root }, slotContext(ctx, slot.key));
  root.client.nextRequest = slot.client.nextRequest;
}

/**
 * Applies one scripted event of the tasks mechanism to the task it names (`task`, default
 * "task"). A `call` naming a new key starts that task; any other event naming a key no call has
 * started is ignored.
 */
export function applyTasksScriptedAny(s: TasksCore, ev: ResilienceEvent, ctx: TasksCtx): void {
  const key = 'task' in ev && ev.task !== undefined ? ev.task : FIRST_TASK;
  if (key === FIRST_TASK) return applyTasksScripted(s, ev, ctx);
  let slot = s.more?.find((t) => t.key === key);
  if (!slot) {
    if (ev.kind !== 'call') {
      ctx.ignore({ by: ev.actor, what: ev.id, reason: `no tools/call has started task "${key}" yet`, rule: 'tasks.create' });
      ctx.why(() => `"${ev.kind}" names task "${key}", which no call has started yet: ignored.`, 'tasks.create');
      return;
    }
    const fresh = initTasks(s.config);
    slot = { key, server: fresh.server, client: fresh.client };
    // The array is replaced, never changed in place (views share it until they copy the slots).
    s.more = [...(s.more ?? []), slot];
  }
  onSlot(s, slot, ctx, (c, x) => applyTasksScripted(c, ev, x));
}

/** Applies one timer or delivery of the tasks mechanism to the task it belongs to (`task`, absent: the first). */
export function applyTasksTimerAny(s: TasksCore, t: TasksTimer, ctx: TasksCtx): void {
  if (t.task === undefined) return applyTasksTimer(s, t, ctx);
  const slot = s.more?.find((x) => x.key === t.task);
  if (slot) onSlot(s, slot, ctx, (c, x) => applyTasksTimer(c, t, x));
}

/**
 * Every task of `s` as a state of one task (`config`, `server`, `client`), with its key: the first
 * ("task"), then the further ones in call order. For invariants and the outcome.
 */
export function eachTask(s: { config: TasksCore['config']; server: TasksCore['server']; client: TasksCore['client']; more?: readonly TaskSlot[] }): { key: string; task: TasksCore }[] {
  const first = { key: FIRST_TASK, task: { mechanism: 'tasks' as const, config: s.config, server: s.server, client: s.client } };
  if (!s.more) return [first];
  return [first, ...s.more.map((t) => ({ key: t.key, task: { mechanism: 'tasks' as const, config: s.config, server: t.server, client: t.client } }))];
}
