import { describe, expect, it } from 'vitest';
import { builtinRaces } from './builtinRaces';
import { createRacesStore, scenarioEquals, selectIsModified } from './racesStore';

const { scenarios: builtins } = builtinRaces();
const make = (id = 'A-cancel-then-complete') => {
  const store = createRacesStore({ builtins });
  store.getState().loadBuiltin(id);
  return store;
};
const firstState = (store: ReturnType<typeof make>) => store.getState().trace.outcome.requests[0].state;

describe('races store', () => {
  it('recomputes the outcome when an event moves, and undo/redo restore it', () => {
    const store = make();
    expect(firstState(store)).toBe('cancelled');
    store.getState().moveEvent('cancel', 700);
    expect(firstState(store)).toBe('completed');
    store.getState().undo();
    expect(firstState(store)).toBe('cancelled');
    store.getState().redo();
    expect(firstState(store)).toBe('completed');
    store.getState().reset();
    expect(firstState(store)).toBe('cancelled');
  });

  it('knows when the scenario differs from the lesson original', () => {
    const store = make();
    expect(selectIsModified(store.getState())).toBe(false);
    store.getState().moveEvent('cancel', 310);
    expect(selectIsModified(store.getState())).toBe(true);
    store.getState().moveEvent('cancel', 300);
    expect(selectIsModified(store.getState())).toBe(false);
    const a = store.getState().scenario;
    expect(scenarioEquals(a, JSON.parse(JSON.stringify(a)))).toBe(true);
    expect(scenarioEquals(a, { ...a, title: 'other' })).toBe(false);
  });

  it('remembers whether a scenario is modified per (scenario, original): the same scenario against another original is compared again', () => {
    const store = make();
    store.getState().moveEvent('cancel', 310);
    const s = store.getState();
    expect(selectIsModified(s)).toBe(true);
    expect(selectIsModified(s)).toBe(true);
    // The same scenario object, now the original itself (an import or a load makes it the lesson's).
    expect(selectIsModified({ ...s, original: s.scenario })).toBe(false);
    expect(selectIsModified(s)).toBe(true);
  });

  it('records one undo point per drag gesture', () => {
    const store = make();
    const before = store.getState().history.past.length;
    store.getState().beginDrag();
    for (const at of [350, 450, 550, 700]) store.getState().moveEvent('cancel', at);
    store.getState().endDrag();
    expect(store.getState().history.past.length).toBe(before + 1);
    store.getState().undo();
    expect(store.getState().scenario.events.find((e) => e.id === 'cancel')?.at).toBe(300);
  });

  it('merges repeated keyboard nudges of one event into one undo step', () => {
    const store = make();
    const before = store.getState().history.past.length;
    for (let i = 0; i < 5; i++) store.getState().nudgeEvent('cancel', 10, 1000 + i * 100);
    expect(store.getState().scenario.events.find((e) => e.id === 'cancel')?.at).toBe(350);
    expect(store.getState().history.past.length).toBe(before + 1);
    store.getState().nudgeEvent('cancel', 10, 5000);
    expect(store.getState().history.past.length).toBe(before + 2);
    store.getState().undo();
    store.getState().undo();
    expect(store.getState().scenario.events.find((e) => e.id === 'cancel')?.at).toBe(300);
  });

  it('reorders same-ms events (the tie rule) and leaves others alone', () => {
    const store = make();
    store.getState().moveEvent('cancel', 500);
    const ids = () => store.getState().scenario.events.map((e) => e.id);
    expect(ids()).toEqual(['start', 'progress-1', 'cancel', 'complete']);
    store.getState().reorderEvent('cancel', 1);
    expect(ids()).toEqual(['start', 'progress-1', 'complete', 'cancel']);
    store.getState().reorderEvent('cancel', 1);
    expect(ids()).toEqual(['start', 'progress-1', 'complete', 'cancel']);
    store.getState().reorderEvent('start', 1);
    expect(ids()).toEqual(['start', 'progress-1', 'complete', 'cancel']);
  });

  it('switches transport and applies the lesson overrides', () => {
    const store = make('D-http-stream-close');
    expect(store.getState().trace.outcome.requests[0].cancelSignal).toBe('stream-close');
    store.getState().setConfig({ transport: 'stdio' });
    expect(store.getState().trace.outcome.requests[0].cancelSignal).toBe('notifications/cancelled');
    store.getState().applyExpectation(3);
    expect(store.getState().trace.outcome.requests[0].cancelSignal).toBe('stream-close+notifications/cancelled');
  });

  it('keeps the previous scenario on bad input and names the field', () => {
    const store = make();
    const before = store.getState().scenario;
    expect(store.getState().importText('{ nope')).toBe(false);
    expect(store.getState().error?.errors[0]).toMatch(/not valid JSON/);
    const bad = JSON.stringify({ ...before, events: [{ ...before.events[0], at: 'soon' }] });
    expect(store.getState().importText(bad)).toBe(false);
    expect(store.getState().error?.errors.join('\n')).toMatch(/events\[0\]\.at/);
    expect(store.getState().scenario).toBe(before);
    store.getState().setConfig({ latencyMs: { clientToServer: -1 } });
    expect(store.getState().error?.errors[0]).toMatch(/config\.latencyMs\.clientToServer/);
    expect(store.getState().scenario).toBe(before);
  });

  it('names another lab\'s scenario in one line, says where pasted text failed, and rejects empty text', () => {
    const store = make();
    const before = store.getState().scenario;
    expect(store.getState().importText(JSON.stringify({ ...before, lab: 'ledger' }))).toBe(false);
    expect(store.getState().error?.errors).toEqual(['lab: this is a "ledger" scenario; open it in the Ledger lab (#/ledger)']);
    expect(store.getState().importText('[]', 'The pasted scenario')).toBe(false);
    expect(store.getState().error?.errors).toEqual(['(scenario): must be a JSON object with format, lab, id, title, config and events']);
    expect(store.getState().importText('{', 'The pasted scenario')).toBe(false);
    expect(store.getState().error?.errors[0]).toMatch(/^\(pasted text\): not valid JSON/);
    expect(store.getState().importText('  ')).toBe(false);
    expect(store.getState().error?.errors).toEqual(['(file): is empty; expected a races scenario as JSON']);
    const many = { ...before, events: Array.from({ length: 2001 }, (_, i) => ({ ...before.events[0], id: `e${i}` })) };
    expect(store.getState().importText(JSON.stringify(many))).toBe(false);
    expect(store.getState().error?.errors[0]).toMatch(/^events: the races lab page draws at most 2,000 events .* this scenario has 2,001 — replay it with `npm run replay -- FILE` instead$/);
    expect(store.getState().importText(JSON.stringify({ ...before, lab: 'chess' }))).toBe(false);
    expect(store.getState().error?.errors).toEqual(['lab: must be "races" for this lab, got "chess" — set "lab" to "races"']);
    expect(store.getState().scenario).toBe(before);
  });

  it('steps between trace step times and plays to the end', () => {
    const store = make();
    const s = () => store.getState();
    s().toStart();
    s().stepForward();
    expect(s().cursorMs).toBe(20);
    s().stepForward();
    expect(s().cursorMs).toBe(150);
    s().stepBack();
    expect(s().cursorMs).toBe(20);
    s().setSpeed(1000);
    s().play();
    s().tick(100);
    expect(s().cursorMs).toBe(120);
    s().tick(10_000);
    expect(s().cursorMs).toBe(500);
    expect(s().playing).toBe(false);
    s().toEnd();
    expect(s().cursorMs).toBe(s().trace.endAt);
  });

  it('exports JSON that imports back to the same scenario', () => {
    const store = make('C-progress-idle-maximum');
    store.getState().moveEvent('progress-800', 810);
    const { text, filename } = store.getState().exportJson();
    expect(filename).toBe('C-progress-idle-maximum.json');
    const other = make();
    expect(other.getState().importText(text)).toBe(true);
    expect(other.getState().scenario).toEqual(store.getState().scenario);
    expect(other.getState().original.id).toBe('C-progress-idle-maximum');
  });
});

describe('races store: the seekable trace forks on a drag (issue 10 item 4)', () => {
  it('a move of the last event resumes from a checkpoint and ends as a fresh replay would', async () => {
    const { replayRaces } = await import('../sim/races');
    const store = make('F5-fifty-timeouts');
    const s0 = store.getState();
    const last = s0.scenario.events[s0.scenario.events.length - 1];
    const trace0 = s0.trace as unknown as { stepCount: number; reusedSteps: number };
    expect(trace0.stepCount).toBeGreaterThan(64); // more than one checkpoint of the page's trace
    store.getState().beginDrag();
    store.getState().moveEvent(last.id, last.at + 3);
    store.getState().moveEvent(last.id, last.at + 7);
    store.getState().endDrag();
    const s1 = store.getState();
    const fresh = replayRaces(s1.scenario);
    expect((s1.trace as unknown as { reusedSteps: number }).reusedSteps).toBeGreaterThan(0);
    expect(s1.trace.outcome).toEqual(fresh.outcome);
    expect(s1.trace.invariants).toEqual(fresh.invariants);
    expect(s1.stepTimes).toEqual([...new Set(fresh.steps.map((x) => x.at))]);
    expect(s1.trace.steps).toEqual(fresh.steps);
    store.getState().undo();
    expect(store.getState().trace.outcome).toEqual(replayRaces(s0.scenario).outcome);
  });
});
