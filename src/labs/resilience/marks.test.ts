import { describe, expect, it } from 'vitest';
import { builtinResilience } from '../../store/builtinResilience';
import { replayResilience, withOverrides } from '../../store/resilienceStore';
import type { Json } from '../../sim/types';
import type { MarkerMark, SpanMark, StepsMark, TimelineMark } from '../../charts/timelineTypes';
import type { StormState } from '../../sim/resilience/storm';
import { packRows, resilienceView, startedLabel, startedSeries, taskKnowledge } from './marks';
import type { TasksState } from '../../sim/resilience/tasks';

const scenario = (id: string, overrides?: Record<string, Json>) => withOverrides(builtinResilience().scenarios.find((s) => s.id === id)!, overrides);
const byId = (marks: TimelineMark[], id: string) => marks.find((m) => m.id === id);

describe('resilience timeline views', () => {
  it('tasks: the status lane holds each stored status; the client row shows the ack apart from the terminal state seen', () => {
    const t = replayResilience(scenario('T1-abort-before-task-id'));
    const v = resilienceView(t, 1000);
    expect(v.lanes.map((l) => l.id)).toEqual(['client', 'wire', 'server', 'worker']);
    const status = v.marks.filter((m): m is SpanMark => m.kind === 'span' && m.row === 'status');
    expect(status.map((m) => [m.at, m.tone])).toEqual([[120, 'info'], [2000, 'muted']]);
    expect((byId(v.marks, 'ack') as MarkerMark).at).toBe(120);
    expect((byId(v.marks, 'ack') as MarkerMark).label).toMatch(/empty \(not terminal\)/);
    expect((byId(v.marks, 'terminal-seen') as MarkerMark).at).toBe(2120);
    expect(v.marks.filter((m) => m.kind === 'handle').map((m) => m.id).sort()).toEqual(['abort', 'call', 'checkpoint', 'created', 'finish']);
    expect(byId(v.marks, 'result-fetched')).toBeUndefined(); // a cancelled task has no result to fetch
    expect(v.lanes[0].rows.map((r) => r.id)).toEqual(['events', 'view']);
  });

  it('tasks: the result fetched with tasks/result (2025-11-25) sits on the client row, or the failure when the store lost it', () => {
    const ok = resilienceView(replayResilience(scenario('T2-cancel-after-completion', { revision: '2025-11-25' })), 0);
    expect(ok.lanes[0].rows.map((r) => r.id)).toEqual(['events', 'view', 'result']);
    expect(byId(ok.marks, 'result-fetched')).toMatchObject({ row: 'result', at: 6400, tone: 'ok', label: 'result: report ready', future: true });
    const arrows = ok.marks.filter((m) => m.kind === 'arrow').map((m) => (m as { label?: string }).label);
    expect(arrows).toContain('tasks/result');
  });

  it('tasks: under 2026-07-28 the result comes inlined in tasks/get at 6200 ms; no tasks/result arrow', () => {
    const ok = resilienceView(replayResilience(scenario('T2-cancel-after-completion')), 0);
    expect(ok.lanes[0].rows.map((r) => r.id)).toEqual(['events', 'view', 'result']);
    expect(ok.lanes[0].rows[2].label).toBe('result (tasks/get)');
    expect(byId(ok.marks, 'result-fetched')).toMatchObject({ row: 'result', at: 6200, tone: 'ok', label: 'result: report ready', future: true });
    const arrows = ok.marks.filter((m) => m.kind === 'arrow').map((m) => (m as { label?: string }).label);
    expect(arrows).not.toContain('tasks/result');
  });

  it('tasks: a task lost in a crash before it was durable ends its status lane at the crash — never "working" on; the client rows say what it knows', () => {
    // T2, durable write 300 ms, crash at 250 ms: created at 100, never durable, no handle sent; the tools/call is lost too.
    const noHandle = replayResilience(scenario('T2-cancel-after-completion', { durableWriteMs: 300, serverCrashAtMs: 250 }));
    const v = resilienceView(noHandle, 0);
    const status = v.marks.filter((m): m is SpanMark => m.kind === 'span' && m.row === 'status');
    expect(status.map((m) => [m.at, m.to, m.open, m.endLabel])).toEqual([[100, 250, false, undefined]]);
    expect(byId(v.marks, 'task-lost')).toMatchObject({ lane: 'server', row: 'status', at: 250, tone: 'bad', label: 'lost: no task (task-1 never durable)' });
    expect(byId(v.marks, 'client-call-lost')).toMatchObject({ lane: 'client', row: 'view', at: 250, label: 'no task: the call was lost — re-issue as a new request' });
    expect(byId(v.marks, 'client-knows')).toBeUndefined();
    const final = noHandle.steps[noHandle.steps.length - 1].state as unknown as TasksState;
    expect(taskKnowledge(final)).toEqual({
      client: 'no task: the tools/call was lost at 250 ms before any handle came back — re-issue it as a new request',
      server: 'no task: task-1 was lost in the crash at 250 ms (never durable) — tasks/get for it answers -32602',
    });
    // Bug handleBeforeDurable: the handle went out at 100 ms (at the client at 200), the crash at 250 loses the task, tasks/get says not found at 1400.
    const held = replayResilience(scenario('T2-cancel-after-completion', { durableWriteMs: 300, serverCrashAtMs: 250, policy: { handleBeforeDurable: true } }));
    const w = resilienceView(held, 0);
    expect(w.marks.filter((m): m is SpanMark => m.kind === 'span' && m.row === 'status').map((m) => [m.to, m.open, m.endLabel])).toEqual([[250, false, undefined]]);
    expect(byId(w.marks, 'client-knows')).toMatchObject({ at: 200, to: 1400, open: false });
    expect(byId(w.marks, 'client-task-gone')).toMatchObject({ at: 1400, label: 'tasks/get: not found — the task is gone' });
    expect(taskKnowledge(held.steps[held.steps.length - 1].state as unknown as TasksState).client).toBe('holds task-1, but tasks/get answered "Task not found" at 1400 ms: the task is gone');
    // A durable task is untouched by the crash: its lane still ends "completed".
    const durable = resilienceView(replayResilience(scenario('T2-cancel-after-completion', { durableWriteMs: 300, serverCrashAtMs: 450 })), 0);
    expect(byId(durable.marks, 'task-lost')).toBeUndefined();
    expect(durable.marks.filter((m): m is SpanMark => m.kind === 'span' && m.row === 'status').at(-1)!.endLabel).toBe('completed');
  });

  it('breaker: each state label is bounded by its segment (the next transition), with an abbreviation and a tooltip', () => {
    const t = replayResilience(scenario('B2-retry-composition'));
    const labels = resilienceView(t, 0).marks.filter((m): m is MarkerMark => m.kind === 'marker' && m.row === 'state');
    const spans = resilienceView(t, 0).marks.filter((m): m is SpanMark => m.kind === 'span' && m.row === 'state');
    expect(labels.length).toBeGreaterThan(1);
    labels.forEach((l, i) => {
      expect(l.labelUntil).toBe(spans[i].to);
      expect(l.shortLabel).toBe({ closed: 'C', open: 'O', 'half-open': 'H' }[l.label as string]);
      expect(l.title).toMatch(new RegExp(`^${l.label} from ${l.at} ms`));
    });
  });

  it('breaker: the state band follows the transitions; attempts are dots; the failure rate is a step series', () => {
    const t = replayResilience(scenario('B1-concurrent-failures'));
    const v = resilienceView(t, 0);
    const band = v.marks.filter((m): m is SpanMark => m.kind === 'span' && m.row === 'state');
    expect(band.map((m) => [m.at, m.tone])).toEqual([[0, 'ok'], [100, 'bad'], [10100, 'warn'], [20100, 'ok']]);
    const dots = v.marks.filter((m) => m.kind === 'point');
    expect(dots).toHaveLength(7);
    expect(dots.filter((d) => d.kind === 'point' && d.hollow)).toHaveLength(1); // the sixth, stale result
    const rate = byId(v.marks, 'rate') as StepsMark;
    expect(rate.points).toContainEqual([100, 100]);
  });

  it('breaker with a token bucket draws its level over time', () => {
    const t = replayResilience(scenario('B3-retry-budget', { retry: { budget: 'token-bucket' } }));
    const v = resilienceView(t, 0);
    expect(v.lanes.map((l) => l.id)).toContain('budget');
    const level = byId(v.marks, 'level') as StepsMark;
    expect(level.max).toBe(10);
    expect(level.points.slice(0, 2).map((p) => p[1])).toEqual([10, 9]);
    expect(Math.min(...level.points.map((p) => p[1]))).toBe(0);
  });

  it('storm: one bar per attempt per layer and per execution (on request, or under the limit)', () => {
    const t = replayResilience(scenario('S1-three-layers'));
    const v = resilienceView(t, 0, 'every');
    const perLane = (lane: string) => v.marks.filter((m) => m.kind === 'span' && m.lane === lane).length;
    expect([perLane('L0'), perLane('L1'), perLane('L2'), perLane('upstream')]).toEqual([4, 16, 64, 64]);
  });

  it('storm: above 24 attempts each layer shows its attempts so far on one scale (2 → 8 → 32), shaded after the user\'s cancel', () => {
    const t = replayResilience(scenario('S2-timeouts-cancel'));
    const v = resilienceView(t, 0);
    expect(v.marks.filter((m) => m.kind === 'span')).toEqual([]);
    const load = (lane: string) => byId(v.marks, `load-${lane}`) as StepsMark;
    expect(['L0', 'L1', 'L2', 'upstream'].map((l) => load(l).points[load(l).points.length - 1][1])).toEqual([2, 8, 32, 32]);
    expect(['L0', 'L1', 'L2', 'upstream'].map((l) => load(l).max)).toEqual([32, 32, 32, 32]);
    // The labels follow the playhead: at 0 ms only the first call has gone down the layers, all 32 by the end (the label used to say 32 at every playhead).
    expect(['L0', 'L1', 'L2', 'upstream'].map((l) => load(l).label)).toEqual(['1 of 2 attempts', '1 of 8 attempts', '1 of 32 attempts', '1 of 32 executions']);
    const atEnd = resilienceView(t, t.endAt);
    expect((byId(atEnd.marks, 'load-upstream') as StepsMark).label).toBe('32 executions');
    expect(['L0', 'L1', 'L2'].map((l) => (byId(atEnd.marks, `load-${l}`) as StepsMark).label)).toEqual(['2 attempts', '8 attempts', '32 attempts']);
    const midway = resilienceView(t, 7000);
    const upstreamStarts = (t.steps[t.steps.length - 1].state as unknown as StormState).executions.map((e) => e.startAt);
    expect((byId(midway.marks, 'load-upstream') as StepsMark).label).toBe(startedLabel(upstreamStarts, 7000, 'executions'));
    expect((byId(midway.marks, 'load-upstream') as StepsMark).label).toMatch(/^\d+ of 32 executions$/);
    expect(byId(v.marks, 'after-cancel-upstream')).toMatchObject({ kind: 'band', at: 7000 });
    const few = resilienceView(replayResilience(scenario('S1-three-layers', { fixes: { retryAtOneLayerOnly: true } })), 0);
    expect(few.marks.some((m) => m.kind === 'span')).toBe(true);
  });

  it('startedLabel counts the starts at the playhead, of the total', () => {
    expect(startedLabel([0, 5, 5, 9], 5, 'attempts')).toBe('3 of 4 attempts');
    expect(startedLabel([0, 5, 5, 9], 9, 'attempts')).toBe('4 attempts');
    expect(startedLabel([], 0, 'executions')).toBe('0 executions');
  });

  it('startedSeries counts starts so far', () => {
    expect(startedSeries([5, 0, 5, 9])).toEqual([[0, 1], [5, 3], [9, 4]]);
  });

  it('packRows puts overlapping intervals on separate rows, reuses free ones, and caps the rows', () => {
    expect(packRows([{ from: 0, to: 10 }, { from: 5, to: 15 }, { from: 10, to: 20 }], 8)).toEqual([0, 1, 0]);
    expect(Math.max(...packRows(Array.from({ length: 20 }, () => ({ from: 0, to: 10 })), 4))).toBe(3);
  });
});

describe('resilience labels that crowded (walkthrough)', () => {
  it('breaker: many calls get one lane label ("N requests"), not "request request request"', () => {
    const v = resilienceView(replayResilience(scenario('B3-retry-budget')), 0);
    const calls = v.marks.filter((m) => m.kind === 'handle' && m.lane === 'client');
    expect(calls.length).toBeGreaterThan(8);
    const labelled = calls.filter((m) => (m as { label?: string }).label !== undefined);
    expect(labelled.map((m) => [m.id, (m as { label?: string }).label])).toEqual([['c0', `${calls.length} requests`]]);
    // B1's three events keep their own labels.
    const b1 = resilienceView(replayResilience(scenario('B1-concurrent-failures')), 0).marks.filter((m) => m.kind === 'handle' && m.lane === 'client');
    expect(b1.every((m) => (m as { label?: string }).label !== undefined)).toBe(true);
  });

  it('tasks: the status row is tall enough for the terminal label below its bar (T1 "cancelled" sat on the bar)', () => {
    const v = resilienceView(replayResilience(scenario('T1-abort-before-task-id')), 0);
    const row = v.lanes.find((l) => l.id === 'server')!.rows.find((r) => r.id === 'status')!;
    const bar = v.marks.find((m): m is SpanMark => m.kind === 'span' && m.row === 'status' && m.endLabel === 'cancelled')!;
    // The bar is centred in its row; the label's baseline is 3 px above the row's bottom and its 11 px font's box ~13 px tall.
    expect((row.height - (bar.thickness ?? 0)) / 2 - 3).toBeGreaterThanOrEqual(13);
  });
});
