import { describe, expect, it } from 'vitest';
import { builtinResilience } from './builtinResilience';
import { createResilienceStore, expectationMet, storeFromHash } from './resilienceStore';

describe('resilience store', () => {
  const { scenarios, errors } = builtinResilience();
  it('loads every built-in scenario file, tasks first', () => {
    expect(errors).toEqual([]);
    expect(scenarios.map((s) => s.id)).toEqual([
      'T1-abort-before-task-id', 'T2-cancel-after-completion', 'T3-finish-before-checkpoint', 'T4-input-without-elicitation', 'T5-client-without-tasks-extension', 'T6-poll-interval-per-task',
      'B1-concurrent-failures', 'B2-retry-composition', 'B3-retry-budget', 'B4-failures-never-decay', 'B5-breaker-counts-tool-errors',
      'S1-three-layers', 'S2-timeouts-cancel', 'S3-gateway-receipt', 'S4-stacked-retry-layers',
    ]);
  });

  it('opens the scenario named in the link, or the first one with the error shown', () => {
    expect(createResilienceStore({ builtins: scenarios, initialId: 'S1-three-layers' }).getState().scenario.id).toBe('S1-three-layers');
    const bad = createResilienceStore({ builtins: scenarios, initialId: 'nope' }).getState();
    expect(bad.scenario.id).toBe('T1-abort-before-task-id');
    expect(bad.error?.errors[0]).toMatch(/no built-in scenario is called "nope"/);
  });

  it('a setting changes the trace; undo brings it back; an invalid one is rejected and keeps the scenario', () => {
    const store = createResilienceStore({ builtins: scenarios, initialId: 'S1-three-layers' });
    const upstream = () => (store.getState().trace.outcome.summary as { upstreamAttempts: number }).upstreamAttempts;
    expect(upstream()).toBe(64);
    store.getState().setConfig({ fixes: { retryAtOneLayerOnly: true } });
    expect(upstream()).toBe(4);
    store.getState().undo();
    expect(upstream()).toBe(64);
    store.getState().setConfig({ cancelPropagationMs: -5 });
    expect(store.getState().error?.errors[0]).toMatch(/^config\.cancelPropagationMs: /);
    expect(upstream()).toBe(64);
  });

  it('moving an event recomputes; the lesson ticks follow the trace', () => {
    const store = createResilienceStore({ builtins: scenarios, initialId: 'T2-cancel-after-completion' });
    expect(expectationMet(store.getState(), 0)).toBe(true);
    store.getState().moveEvent('abort', 3000); // the cancel now reaches a live task
    expect((store.getState().trace.outcome.requests[0] as { status: string }).status).toBe('completed');
    expect(store.getState().trace.steps.some((s) => s.rule === 'tasks.cancel-2026' && s.at === 3100)).toBe(true);
    store.getState().applyExpectation(2);
    expect(expectationMet(store.getState(), 2)).toBe(true);
  });

  it('imports name another lab\'s file in one line and reject bad JSON, keeping the previous scenario', () => {
    const store = createResilienceStore({ builtins: scenarios });
    expect(store.getState().importText('{"lab":"races"}', 'The file r.json')).toBe(false);
    expect(store.getState().error).toEqual({ title: 'The file r.json is not a resilience scenario; the previous scenario is kept', errors: ['lab: this is a "races" scenario; open it in the Races lab (#/races)'] });
    const ledger = JSON.stringify({ format: 1, lab: 'ledger', id: 'x', title: 'x', seed: 1, config: {}, events: [] });
    expect(store.getState().importText(ledger)).toBe(false);
    expect(store.getState().error?.errors).toEqual(['lab: this is a "ledger" scenario; open it in the Ledger lab (#/ledger)']);
    expect(store.getState().importText(JSON.stringify({ format: 1, lab: 'chess' }))).toBe(false);
    // The lab first, then every other problem of the file in the same message (walkthrough: `{"format":1}` named only the lab).
    expect(store.getState().error?.errors).toEqual([
      'lab: must be "resilience" for this lab, got "chess" — set "lab" to "resilience"',
      'id: is missing — add it (a string)',
      'title: is missing — add it (a string)',
      'config: is missing — add it (an object)',
      'events: is missing — add it (an array)',
    ]);
    expect(store.getState().importText('  ', 'The pasted scenario')).toBe(false);
    expect(store.getState().error?.errors).toEqual(['(pasted text): is empty; expected a resilience scenario as JSON']);
    expect(store.getState().importText('{oops')).toBe(false);
    expect(store.getState().error?.errors[0]).toMatch(/not valid JSON/);
    expect(store.getState().scenario.id).toBe('T1-abort-before-task-id');
    const { text } = store.getState().exportJson();
    expect(store.getState().importText(text)).toBe(true);
  });

  it('a bad link shows its errors and names the scenario shown instead; a bad followed link keeps the current one', () => {
    const garbage = storeFromHash('#/resilience/x?s=garbage', scenarios).getState();
    expect(garbage.scenario.id).toBe('T1-abort-before-task-id');
    // The path names no built-in: that is the problem (an unknown parameter alone would only be ignored).
    expect(garbage.error).toEqual({ title: 'The link does not hold a valid resilience scenario; showing "T1 · Abort before the task id is known" instead', errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "x"/), 's: unknown link parameter — ignored'] });
    const unknown = storeFromHash('#/resilience/nope', scenarios).getState();
    expect(unknown.error?.title).toMatch(/^The link does not hold a valid resilience scenario; showing "/);
    expect(unknown.error?.errors[0]).toMatch(/^scenario id \(in the link\): no built-in scenario is called "nope"/);
    expect(storeFromHash('#/resilience?scenario=garbage', scenarios).getState().error?.errors[0]).toMatch(/^scenario \(in the link\): /);
    const good = storeFromHash('#/resilience/S2-timeouts-cancel', scenarios);
    expect(good.getState().error).toBeNull();
    good.getState().followLink('#/resilience?scenario=%%%');
    expect(good.getState().scenario.id).toBe('S2-timeouts-cancel');
    expect(good.getState().error?.title).toBe(`The link does not hold a valid resilience scenario; the previous scenario is kept — still showing "${good.getState().scenario.title}" instead`);
    good.getState().followLink('#/resilience/B1-concurrent-failures');
    expect(good.getState().scenario.id).toBe('B1-concurrent-failures');
    expect(good.getState().error).toBeNull();
    expect(storeFromHash('#/resilience', scenarios).getState().error).toBeNull();
  });

  it('a link naming a built-in with a bad parameter shows that built-in and the parameter as ignored', () => {
    const b1 = storeFromHash('#/resilience/B1-concurrent-failures?breaker.threshold=-1', scenarios).getState();
    expect(b1.scenario.id).toBe('B1-concurrent-failures');
    expect(b1.original.id).toBe('B1-concurrent-failures');
    expect(b1.error?.title).toBe(`Parts of the link are not valid; showing the built-in "${b1.scenario.title}" it names`);
    expect(b1.error?.errors).toHaveLength(1);
    expect(b1.error?.errors[0]).toBe('breaker.threshold: unknown link parameter — ignored; the scenario is kept');
    const followed = storeFromHash('#/resilience/S2-timeouts-cancel', scenarios);
    followed.getState().followLink('#/resilience/B2-retry-composition?x=1');
    expect(followed.getState().scenario.id).toBe('B2-retry-composition');
    expect(followed.getState().error?.errors[0]).toBe('x: unknown link parameter — ignored; the scenario is kept');
    followed.getState().undo();
    expect(followed.getState().scenario.id).toBe('S2-timeouts-cancel');
  });
  it('refuses a scenario with more events than the page draws (walkthrough: 10,000 froze the page), keeping the previous one', () => {
    const store = createResilienceStore({ builtins: scenarios, initialId: 'S4-stacked-retry-layers' });
    const base = store.getState().scenario;
    const events = Array.from({ length: 2001 }, (_, i) => ({ ...base.events[0], id: `e${i}`, at: i }));
    expect(store.getState().importText(JSON.stringify({ ...base, id: 'big', events }))).toBe(false);
    expect(store.getState().error?.errors[0]).toBe('events: the resilience lab page draws at most 2,000 events (each is a mark you can drag); this scenario has 2,001 — replay it with `npm run replay -- FILE` instead');
    expect(store.getState().scenario.id).toBe('S4-stacked-retry-layers');
  });
});
