import type { CoreContext } from './core';
import type { ApplyContext, ScriptedEvent } from './types';

/** The bridge from a core model to the historic one-step `Model` interface (re-exported by core.ts). */

/**
 * An old-engine `ApplyContext` seen as a `CoreContext` (notes and ignored items always kept), for
 * the historic one-step `Model` interface of a core model (each call copies the state).
 */
export function asCoreContext<T>(ctx: ApplyContext<T>): CoreContext<T> {
  return {
    get now() {
      return ctx.now;
    },
    random: () => ctx.random(),
    schedule: (at, rank, actor, label, payload) => ctx.schedule(at, rank, actor, label, payload),
    cancel: (handle) => ctx.cancel(handle),
    emit: (effect) => ctx.emit(effect),
    emitWire: (from, transport, message, http, arrivesAt, requestKey) => ctx.emit({ from, transport, message, http, arrivesAt, requestKey }),
    keepsIgnored: true,
    keepsNotes: true,
    ignore: (item) => ctx.ignore(typeof item === 'function' ? item() : item),
    why: (text, rule) => ctx.why(text, rule),
  };
}

/**
 * The historic one-step `Model` methods (`applyScripted`, `applyTimer`) of a core model: each
 * call thaws the immutable view `V` into a fresh mutable state, applies the core step through
 * `asCoreContext` and returns the new view (so they copy the state: for tests and tools, not for
 * the hot loop).
 */
export function oneStepMethods<S, V, T>(
  thaw: (view: V) => S,
  view: (state: S) => V,
  applyScripted: (state: S, event: ScriptedEvent, ctx: CoreContext<T>) => void,
  applyTimer: (state: S, payload: T, ctx: CoreContext<T>) => void,
): { applyScripted(state: V, event: ScriptedEvent, ctx: ApplyContext<T>): V; applyTimer(state: V, payload: T, ctx: ApplyContext<T>): V } {
  return {
    applyScripted(state, event, ctx) {
      const s = thaw(state);
      applyScripted(s, event, asCoreContext(ctx));
      return view(s);
    },
    applyTimer(state, payload, ctx) {
      const s = thaw(state);
      applyTimer(s, payload, asCoreContext(ctx));
      return view(s);
    },
  };
}
