import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exploreLabOrders, naturalOrderEvents, outcomeKey, scenarioOfOrder } from '../labOrders';
import { LAB_DEFINITIONS, parseAnyScenarioText } from '../labs';
import { racesDefinition } from '../races/definition';
import { flowDefinition } from '../flow/definition';
import { resilienceDefinition } from '../resilience/definition';
import { withOverrides } from '../expectation';
import type { AnyLabDefinition } from '../lab';
import type { Scenario } from '../types';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const load = (lab: string, id: string): Scenario => {
  const r = parseAnyScenarioText(readFileSync(path.join(root, 'public/scenarios', lab, `${id}.json`), 'utf8'));
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
};

describe('All orders through the lab contract', () => {
  it('every lab definition has an explorer', () => {
    for (const make of Object.values(LAB_DEFINITIONS)) {
      const d = make({ open: () => { throw new Error('not opened'); } }) as AnyLabDefinition;
      expect(d.explore, d.id).toBeDefined();
    }
  });

  it('races: the natural set is the cancel vs completion of one call; the two classes, each with its closest order', () => {
    const a = load('races', 'A-cancel-then-complete');
    const events = naturalOrderEvents(racesDefinition, a);
    expect(events).toEqual(['progress-1', 'cancel', 'complete']);
    const r = exploreLabOrders(racesDefinition, a, events);
    expect(r).toMatchObject({ total: 6, evaluated: 6, rejected: 0, cancelled: false });
    expect(r.classes.map((c) => [c.key, c.count])).toEqual([['1:cancelled', 3], ['1:completed', 3]]);
    // The file's own order is the cancelled class's example (0 inversions).
    expect(r.classes[0]).toMatchObject({ example: ['progress-1', 'cancel', 'complete'], inversions: 0 });
    // Opening the completed class's counterexample gives a scenario whose replay completes.
    const opened = scenarioOfOrder(a, r.classes[1].example);
    expect(racesDefinition.replay(opened).outcome.requests[0].state).toBe('completed');
  });

  it('races: a broken policy shows as a class with its broken invariant', () => {
    const c = withOverrides(load('races', 'C-progress-idle-maximum'), { policy: { progressResetsMaximum: true } });
    const r = exploreLabOrders(racesDefinition, c, naturalOrderEvents(racesDefinition, c));
    expect(r.total).toBe(720);
    expect(r.classes.some((k) => k.broken.includes('maximum-deadline-fixed'))).toBe(true);
    expect(r.classes.every((k) => k.key.includes('| broken:') === k.broken.length > 0)).toBe(true);
  });

  it('resilience: one actor keeps its own order (rejected orders counted), classes leave out times', () => {
    const t1 = load('resilience', 'T1-abort-before-task-id');
    const events = naturalOrderEvents(resilienceDefinition, t1);
    expect(events).toEqual(['call', 'abort', 'created', 'checkpoint', 'finish']);
    const r = exploreLabOrders(resilienceDefinition, t1, events);
    // call/abort (client) and checkpoint/finish (worker) each keep their order: 5!/(2!·2!) = 30.
    expect(r).toMatchObject({ total: 120, evaluated: 30, rejected: 90 });
    expect(r.classes.reduce((n, c) => n + c.count, 0)).toBe(30);
    expect(r.classes.length).toBeGreaterThan(1);
    expect(r.classes.every((c) => !/AtMs:/.test(c.key))).toBe(true);
    for (const c of r.classes) expect(outcomeKey(resilienceDefinition.replay(scenarioOfOrder(t1, c.example)).outcome)).toBe(c.key);
  });

  it('flow: the server stream keeps its order; cancel mid-run stops with cancelled: true', () => {
    const files = readdirSync(path.join(root, 'public/scenarios/flow')).map((f) => f.replace(/\.json$/, ''));
    const withEvents = files.map((id) => load('flow', id)).find((s) => s.events.some((e) => e.actor !== 'server') && s.events.filter((e) => e.actor === 'server').length >= 2)!;
    expect(withEvents).toBeDefined();
    const events = withEvents.events.slice(0, 6).map((e) => e.id);
    const r = exploreLabOrders(flowDefinition, withEvents, events);
    expect(r.evaluated + r.rejected).toBe(r.total);
    const server = events.filter((id) => withEvents.events.find((e) => e.id === id)!.actor === 'server').length;
    expect(r.evaluated).toBe(r.total / [1, 1, 2, 6, 24, 120, 720][server]);
    let polls = 0;
    const cut = exploreLabOrders(resilienceDefinition, load('resilience', 'T1-abort-before-task-id'), ['call', 'abort', 'created', 'checkpoint', 'finish'], { shouldStop: () => ++polls >= 1 });
    expect(cut.cancelled).toBe(true);
  });

  it('refuses an empty, unknown or over-long selection naming the field', () => {
    const a = load('races', 'A-cancel-then-complete');
    expect(() => exploreLabOrders(racesDefinition, a, [])).toThrow(/^events: nothing is selected/);
    expect(() => exploreLabOrders(resilienceDefinition, load('resilience', 'T1-abort-before-task-id'), ['nope'])).toThrow('events: no event with id "nope"');
    expect(() => exploreLabOrders(resilienceDefinition, load('resilience', 'T1-abort-before-task-id'), Array(9).fill('call'))).toThrow(/events: select 1 to 8 events, got 9/);
  });
});
