import { expect } from 'vitest';
import type { LabStore } from '../labStore';
import type { Json } from '../../sim/types';

/**
 * A chainable driver for lab store tests (tldraw's test editor idea): each verb acts on the store
 * and returns the driver, so a test reads as the learner's steps — `drive(store).load('A').move('cancel',
 * 700).toEnd().expectOutcome(...)` — instead of `getState()` choreography. Mirrored in the browser by
 * `e2e/pages/lab.ts`. Test-only (imports vitest's `expect`).
 */
export class LabDriver<T extends { outcome: unknown }, X> {
  constructor(readonly store: LabStore<T, X>) {}

  get state() {
    return this.store.getState();
  }
  load(id: string): this {
    this.state.loadBuiltin(id);
    return this;
  }
  move(id: string, atMs: number): this {
    this.state.moveEvent(id, atMs);
    return this;
  }
  /** One drag gesture through the given times (one undo step). */
  drag(id: string, ...timesMs: number[]): this {
    this.state.beginDrag();
    for (const t of timesMs) this.state.moveEvent(id, t);
    this.state.endDrag();
    return this;
  }
  set(patch: Record<string, Json>): this {
    this.state.setConfig(patch);
    return this;
  }
  paste(scenario: unknown): this {
    this.state.importText(typeof scenario === 'string' ? scenario : JSON.stringify(scenario), 'The pasted scenario');
    return this;
  }
  link(hash: string): this {
    this.state.followLink(hash);
    return this;
  }
  step(times = 1): this {
    for (let i = 0; i < times; i++) this.state.stepForward();
    return this;
  }
  seek(ms: number): this {
    this.state.seek(ms);
    return this;
  }
  toEnd(): this {
    this.state.toEnd();
    return this;
  }
  undo(): this {
    this.state.undo();
    return this;
  }
  redo(): this {
    this.state.redo();
    return this;
  }
  /** The final outcome matches `expected` (a subset, as `toMatchObject`). */
  expectOutcome(expected: object): this {
    expect(this.state.trace.outcome).toMatchObject(expected);
    return this;
  }
  /** The event `id` is at `atMs`. */
  expectAt(id: string, atMs: number): this {
    expect(this.state.scenario.events.find((e) => e.id === id)?.at).toBe(atMs);
    return this;
  }
  /** The banner shows `title` (a substring or pattern), or none with `null`. */
  expectError(title: string | RegExp | null): this {
    if (title === null) expect(this.state.error).toBeNull();
    else expect(this.state.error?.title).toMatch(title);
    return this;
  }
  expectScenario(id: string): this {
    expect(this.state.scenario.id).toBe(id);
    return this;
  }
}

/** Starts a driver over `store`. */
export function drive<T extends { outcome: unknown }, X>(store: LabStore<T, X>): LabDriver<T, X> {
  return new LabDriver(store);
}
