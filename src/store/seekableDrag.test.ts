import { describe, expect, it } from 'vitest';
import { flowDefinition } from '../sim/flow/definition';
import { resilienceDefinition } from '../sim/resilience/definition';
import { isLabTrace, type LabPageDefinition } from '../sim/lab';
import type { ReplayResult } from '../sim/replay';
import type { Scenario } from '../sim/types';
import { createFlowStore } from './flowStore';
import { builtinResilience } from './builtinResilience';
import { createResilienceStore } from './resilienceStore';
import { playheadSelectors } from './labSelectors';
import { finalStateOf, stepRecords } from './traceScan';
import type { LabStore } from './labStore';

/**
 * The flow and resilience stores keep the seekable trace and fork it on a drag (issue 10 item 4):
 * a move resumes from a checkpoint (steps reused), and after the gesture the trace, the playhead
 * selectors, the step times and the views' whole-trace records equal a fresh replay of the
 * edited scenario; undo returns to the first trace's outcome.
 */

/** A few fields of a flow or resilience state that change from step to step (the whole state is compared at the playhead and at the end). */
function digest(state: unknown): string {
  const s = state as Record<string, unknown> & { buffer?: { size: number; coalesced: number }; delivered?: { finals: number } };
  if (s.buffer) return JSON.stringify([s.buffer.size, s.buffer.coalesced, s.status, s.refetched, s.resyncs, s.delivered?.finals, s.disconnects]);
  return seenJson(state);
}

/** A state as JSON; a breaker state's shared append-only logs cut to what it has seen (a full replay's states share the whole run's logs). */
function seenJson(state: unknown): string {
  const s = state as { mechanism?: string; logs?: { attempts: unknown[]; calls: unknown[]; transitions: unknown[] }; attemptsSeen: number; callsSeen: number; transitionsSeen: number };
  if (s.mechanism !== 'breaker' || !s.logs) return JSON.stringify(state);
  return JSON.stringify({ ...s, logs: { attempts: s.logs.attempts.slice(0, s.attemptsSeen), calls: s.logs.calls.slice(0, s.callsSeen), transitions: s.logs.transitions.slice(0, s.transitionsSeen) } });
}

const steps = (t: { stepCount?: number; steps: unknown[] }) => t.stepCount ?? t.steps.length;

function dragLast<S, O, T extends ReplayResult<S, O>>(store: LabStore<T, unknown>, definition: LabPageDefinition<S, O, T>) {
  const s0 = store.getState();
  expect(isLabTrace(s0.trace)).toBe(true);
  expect(steps(s0.trace as unknown as { steps: unknown[] })).toBeGreaterThan(64); // more than one checkpoint
  const record = (r: { index: number; at: number; kind: string; state: unknown }) => [r.index, r.at, r.kind, digest(r.state)];
  stepRecords(s0.trace, 'test', record);
  const ev = s0.scenario.events.reduce((a, b) => (b.at >= a.at ? b : a));
  store.getState().seek(ev.at);
  store.getState().beginDrag();
  store.getState().moveEvent(ev.id, ev.at + 3);
  stepRecords(store.getState().trace, 'test', record);
  store.getState().moveEvent(ev.id, ev.at + 9);
  store.getState().endDrag();
  const s1 = store.getState();
  const fresh = definition.replay(s1.scenario as Scenario);
  expect((s1.trace as unknown as { reusedSteps: number }).reusedSteps).toBeGreaterThan(0);
  expect(s1.trace.outcome).toEqual(fresh.outcome);
  expect(s1.trace.invariants).toEqual(fresh.invariants);
  expect(s1.trace.effects).toEqual(fresh.effects);
  expect(s1.stepTimes).toEqual([...new Set(fresh.steps.map((x) => x.at))]);
  const { selectStateAt, selectOutcomeAt } = playheadSelectors(definition);
  expect(selectStateAt(s1 as never)).toBe(selectStateAt(s1 as never)); // stable for useStore
  expect(seenJson(selectStateAt(s1 as never))).toBe(seenJson(definition.stateAt(fresh, s1.cursorMs)));
  expect(selectOutcomeAt(s1 as never)).toEqual(definition.outcomeAt(fresh, s1.cursorMs));
  expect(seenJson(finalStateOf(s1.trace))).toBe(seenJson(fresh.steps.at(-1)!.state));
  expect(stepRecords(s1.trace, 'test', record)).toEqual(fresh.steps.map((x, i) => [i, x.at, x.entry.kind, digest(x.state)]));
  store.getState().undo();
  expect(store.getState().trace.outcome).toEqual(definition.replay(s0.scenario).outcome);
}

describe('flow and resilience stores fork the seekable trace on a drag', () => {
  it('flow F1: a drag of its last event', () => {
    // F1: one stall among thousands of producer steps (many checkpoints before it).
    const store = createFlowStore({ hash: '#/flow/F1-stalled-subscriber' });
    expect(store.getState().scenario.id).toBe('F1-stalled-subscriber');
    dragLast(store as never, flowDefinition as never);
  }, 120_000);

  it('resilience B3: a drag of its last event', () => {
    const { scenarios } = builtinResilience();
    const store = createResilienceStore({ builtins: scenarios, initialId: 'B3-retry-budget' });
    dragLast(store as never, resilienceDefinition as never);
  }, 120_000);
});
