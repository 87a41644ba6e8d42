import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { explore, interleavings } from '../sim/explore';
import { createLedgerModel, ledgerLaneOf, replayLedger, withLedgerOverrides } from '../sim/ledger';
import { loadSqlJsNode } from '../db/node';
import { memoryOpener } from '../db/sqljs';
import type { OpenDatabase } from '../sim/ledger';
import { loadScenarios } from '../sim/ledger/__tests__/helpers';
import { createLedgerStore, ledgerStepLanes, queryAtPlayhead, selectStateAt, type LedgerStore } from './ledgerStore';

let open: OpenDatabase;
beforeAll(async () => {
  open = memoryOpener(await loadSqlJsNode());
});

const make = () => createLedgerStore({ open, builtins: loadScenarios() });

describe('ledger store', () => {
  it('dragging B before A\'s write under naive executes twice; undo restores; switching to immediate executes once', () => {
    const store = make();
    const s = store.getState;
    expect(s().scenario.id).toBe('A-race-two-connections');
    expect(s().trace.outcome.summary.executions).toBe(1);
    s().moveEvent('B-begin', 15);
    s().moveEvent('B-read', 16);
    expect(s().trace.outcome.summary.executions).toBe(2);
    s().setConfig({ policy: 'immediate' });
    expect(s().trace.outcome.summary).toMatchObject({ executions: 1, connA: 'executed', connB: 'replayed' });
    s().undo();
    expect(s().trace.outcome.summary.executions).toBe(2);
    s().undo();
    s().undo();
    expect(s().trace.outcome.summary.executions).toBe(1);
  });

  it('a linked scenario loads as an undoable step, clears an old error, and a built-in keeps its lesson version for Reset', () => {
    const store = make();
    const s = store.getState;
    s().setError({ title: 'old', errors: ['x'] });
    const d = s().builtins.find((b) => b.id === 'D-same-key')!;
    expect(s().loadLinked(d)).toBe(true);
    expect(s().scenario.id).toBe('D-same-key');
    expect(s().error).toBeNull();
    expect(s().original).toBe(d);
    s().undo();
    expect(s().scenario.id).toBe('A-race-two-connections');
  });

  it('an invalid setting is refused with the field named, and the scenario is kept', () => {
    const store = make();
    store.getState().setConfig({ policy: 'yolo' });
    expect(store.getState().error?.errors[0]).toMatch(/^config\.policy: /);
    expect((store.getState().scenario.config as { policy: string }).policy).toBe('naive');
  });

  it('tables follow the playhead, and the console queries the database as it is there, read-only', () => {
    const store = make();
    const s = store.getState;
    s().seek(15);
    expect(selectStateAt(s()).tables.executions).toBe(0);
    expect(queryAtPlayhead(s(), 'SELECT count(*) AS n FROM charges')).toEqual({ ok: true, columns: ['n'], rows: [[0]] });
    s().seek(25);
    expect(selectStateAt(s()).tables.executions).toBe(1);
    expect(queryAtPlayhead(s(), 'SELECT receipt FROM charges')).toEqual({ ok: true, columns: ['receipt'], rows: [['charge-001']] });
    expect(queryAtPlayhead(s(), 'DELETE FROM charges')).toEqual({ ok: false, error: 'attempt to write a readonly database' });
    expect(queryAtPlayhead(s(), 'SELEC nope')).toEqual({ ok: false, error: 'near "SELEC": syntax error' });
  });

  it('applyOrder puts the steps into an explorer ordering', () => {
    const store = make();
    store.getState().applyOrder(['A-begin', 'A-read', 'B-begin', 'B-read', 'B-execute', 'B-write', 'B-commit', 'A-execute', 'A-write', 'A-commit']);
    expect(store.getState().trace.outcome.summary.executions).toBe(2);
  });

  it('imports a scenario file, and a bad one is refused field by field with the current one kept', () => {
    const store = make();
    const s = store.getState;
    const exported = s().exportJson();
    expect(exported.filename).toBe('A-race-two-connections.json');
    const bad = JSON.parse(exported.text);
    bad.events[0].conn = 'C';
    bad.config.policy = 'hope';
    expect(s().importText(JSON.stringify(bad), 'bad.json')).toBe(false);
    expect(s().error?.title).toBe('bad.json is not a valid ledger scenario; the previous scenario is kept');
    expect(s().error?.errors).toContain('config.policy: must be one of "naive", "deferred", "immediate", "claim", got "hope" — use one of "naive", "deferred", "immediate", "claim"');
    expect(s().error?.errors.some((e) => e.startsWith('events[0]'))).toBe(true);
    expect(s().importText('{"format": 1,', 'cut.json')).toBe(false);
    expect(s().error?.errors[0]).toMatch(/^\(file\): not valid JSON — /);
    expect(s().scenario.id).toBe('A-race-two-connections');
    const long = JSON.parse(exported.text);
    long.events = Array.from({ length: 301 }, (_, i) => ({ id: `c${i}`, at: i, actor: 'client', kind: 'call', requestId: i }));
    expect(s().importText(JSON.stringify(long), 'long.json')).toBe(false);
    expect(s().error?.errors).toEqual(['events: the ledger lab replays at most 300 events (each step runs SQL on a real database); this scenario has 301']);
    const good = JSON.parse(exported.text);
    good.id = 'mine';
    good.config.policy = 'claim';
    expect(s().importText(JSON.stringify(good), 'mine.json')).toBe(true);
    expect(s().scenario.id).toBe('mine');
    expect(s().trace.outcome.summary.connB).toBe('replayed');
  });

  it('reorders events at the same millisecond (the tie order decides who reads first)', () => {
    const store = make();
    const s = store.getState;
    s().moveEvent('B-begin', 0);
    s().moveEvent('B-read', 10); // same ms as A-read, later in the file
    const order = () => s().scenario.events.filter((e) => e.at === 10).map((e) => e.id);
    expect(order()).toEqual(['A-read', 'B-read']);
    s().reorderEvent('B-read', -1);
    expect(order()).toEqual(['B-read', 'A-read']);
    s().reorderEvent('B-read', -1);
    expect(order()).toEqual(['B-read', 'A-read']);
  });

  it('a step dragged past its own connection\'s later steps stops at the neighbour and says why', () => {
    const store = make();
    const s = store.getState;
    s().moveEvent('B-execute', 500); // past B-write (130) and B-commit (140)
    expect(s().scenario.events.find((e) => e.id === 'B-execute')!.at).toBe(130);
    expect(s().notice).toBe(
      "connection B's execute stays after its read (110 ms) and before its write (130 ms): a connection runs its own steps in order. To change the interleaving, move the other connection's steps.",
    );
    expect(ledgerStepLanes(s().scenario)[1]).toEqual(['B-begin', 'B-read', 'B-execute', 'B-write', 'B-commit']);
    // Backwards past its own read: stops at the read's time, still after it in the tie order.
    s().moveEvent('B-execute', 0);
    expect(s().scenario.events.find((e) => e.id === 'B-execute')!.at).toBe(110);
    expect(s().notice).toMatch(/^connection B's execute stays after its read \(110 ms\)/);
    // A move inside the bounds goes through and clears the notice.
    s().moveEvent('B-execute', 115);
    expect(s().scenario.events.find((e) => e.id === 'B-execute')!.at).toBe(115);
    expect(s().notice).toBeNull();
    // The first step cannot pass its successor either, and nudges obey the same bounds.
    s().nudgeEvent('B-begin', 50);
    expect(s().scenario.events.find((e) => e.id === 'B-begin')!.at).toBe(110);
    s().nudgeEvent('A-commit', -1000);
    expect(s().scenario.events.find((e) => e.id === 'A-commit')!.at).toBe(30);
  });

  it('moving a step onto a neighbour that is earlier in the file keeps it after that neighbour (1 ms later)', () => {
    const store = make();
    const s = store.getState;
    // Swap B-read's and B-begin's places in the file at different times, then move B-begin onto B-read's time.
    const events = s().scenario.events.slice();
    const bBegin = events.findIndex((e) => e.id === 'B-begin');
    const bRead = events.findIndex((e) => e.id === 'B-read');
    [events[bBegin], events[bRead]] = [events[bRead], events[bBegin]];
    s().showScenario({ ...s().scenario, events });
    s().moveEvent('B-begin', 110);
    // B-begin is now after B-read in the file, so at 110 ms it would run second: it stops at 109.
    expect(s().scenario.events.find((e) => e.id === 'B-begin')!.at).toBe(109);
    expect(ledgerStepLanes(s().scenario)[1][0]).toBe('B-begin');
  });

  it('a keyboard move that cannot happen says why in the status notice, never silently (walkthrough)', () => {
    const store = make();
    const s = store.getState;
    // Alt+→ on a step alone at its millisecond: nothing to swap with.
    const before = s().scenario;
    s().reorderEvent('A-read', 1);
    expect(s().scenario).toBe(before);
    expect(s().notice).toBe("A-read has no event at 10 ms after it to swap with — Alt+←/→ reorders events at the same millisecond; move it onto another event's time with ←/→ first");
    // ← on the first step at 0 ms: the start of the timeline.
    s().nudgeEvent('A-begin', -10);
    expect(s().scenario).toBe(before);
    expect(s().notice).toBe('A-begin is at 0 ms, the start of the timeline — it cannot move earlier; move the other events later instead');
    // A move that happens clears it.
    s().nudgeEvent('B-begin', -10);
    expect(s().notice).toBeNull();
  });

  it('Alt+arrow refuses to swap two steps of one connection, and applyOrder refuses an order that breaks a lane', () => {
    const store = make();
    const s = store.getState;
    s().moveEvent('B-read', 100); // same ms as B-begin, after it in the file
    const before = s().scenario;
    s().reorderEvent('B-read', -1);
    expect(s().scenario).toBe(before);
    expect(s().notice).toBe("connection B's read cannot go before connection B's begin: a connection runs its own steps in order. To change who goes first, move the other connection's steps.");
    s().applyOrder(['A-begin', 'A-read', 'A-execute', 'A-write', 'A-commit', 'B-begin', 'B-read', 'B-write', 'B-commit', 'B-execute']);
    expect(s().scenario).toBe(before);
    expect(s().error?.errors).toEqual(['order: B-begin → B-read → B-write → B-commit → B-execute is not the lane\'s own order B-begin → B-read → B-execute → B-write → B-commit']);
  });

  it('after dragging B\'s execute towards the end, the atomic policies still never execute twice in any of the 252 orders', () => {
    const store = make();
    const s = store.getState;
    s().moveEvent('B-execute', 1000);
    const scenario = s().scenario;
    const model = createLedgerModel(open);
    for (const policy of ['immediate', 'claim', 'deferred']) {
      const result = explore({
        scenario: withLedgerOverrides(scenario, { policy }),
        movable: scenario.events.filter((e) => e.actor === 'db').map((e) => e.id),
        laneOf: ledgerLaneOf,
        run: (x) => replayLedger(x, open, { model, keep: 'effects' }).outcome,
        classify: (o) => String(o.summary.executions),
      });
      expect(result.total).toBe(252);
      expect(result.groups.map((g) => g.key)).toEqual(['1']);
    }
  }, 120_000);
});

describe('ledger store: play and other labs\' files', () => {
  it('play runs the playhead at the speed to the last step and stops; stepping pauses', () => {
    const store = make();
    const s = store.getState;
    expect(s().trace.endAt).toBe(140);
    // Opens at 0, like the other labs; so does a scenario picked, pasted or linked.
    expect(s().cursorMs).toBe(0);
    s().toEnd();
    s().loadBuiltin('D-same-key');
    expect(s().cursorMs).toBe(0);
    s().loadBuiltin('A-race-two-connections');
    s().setSpeed(100); // 100 virtual ms per real second
    s().togglePlay(); // from 0
    expect(s()).toMatchObject({ playing: true, cursorMs: 0 });
    s().tick(500);
    expect(s().cursorMs).toBe(50);
    s().tick(2000);
    expect(s()).toMatchObject({ playing: false, cursorMs: 140 });
    s().togglePlay();
    s().tick(123);
    s().stepForward();
    expect(s()).toMatchObject({ playing: false, cursorMs: 20 });
    s().setSpeed(1e9);
    expect(s().speed).toBe(100_000);
  });

  it('a scenario file of another lab is refused in one line that names the lab to open', () => {
    const store = make();
    const text = readFileSync(new URL('../../public/scenarios/races/A-cancel-then-complete.json', import.meta.url), 'utf8');
    expect(store.getState().importText(text, 'A-cancel-then-complete.json')).toBe(false);
    expect(store.getState().error).toEqual({
      title: 'A-cancel-then-complete.json is not a ledger scenario; the previous scenario is kept',
      errors: ['lab: this is a "races" scenario; open it in the Races lab (#/races)'],
    });
    expect(store.getState().scenario.id).toBe('A-race-two-connections');
  });
});

describe('ledger store: files whose connection runs its steps out of order', () => {
  it('are refused with the lane named, and the current scenario is kept', () => {
    const store = make();
    const s = store.getState;
    const file = JSON.parse(s().exportJson().text);
    file.events.find((e: { id: string }) => e.id === 'B-execute').at = 500; // after B's commit
    expect(s().importText(JSON.stringify(file), 'late.json')).toBe(false);
    expect(s().error).toEqual({
      title: 'late.json is not a valid ledger scenario; the previous scenario is kept',
      errors: ["events: connection B's steps must run in the order begin, read, execute, write, commit (each at most once); here they run begin → read → write → commit → execute"],
    });
    file.events.find((e: { id: string }) => e.id === 'B-execute').at = 120;
    file.events.find((e: { id: string }) => e.id === 'B-write').kind = 'read';
    expect(s().importText(JSON.stringify(file), 'twice.json')).toBe(false);
    expect(s().error?.errors[0]).toMatch(/here they run begin → read → execute → read → commit$/);
    expect(s().scenario.events.find((e) => e.id === 'B-execute')!.at).toBe(120);
  });
});

describe('property: no edit from the page breaks a connection\'s own step order (fast-check)', () => {
  const ids = ['A-begin', 'A-read', 'A-execute', 'A-write', 'A-commit', 'B-begin', 'B-read', 'B-execute', 'B-write', 'B-commit'];
  const LANES = [ids.slice(0, 5), ids.slice(5)];
  const orders = [...interleavings(LANES)].map((i) => i.order);
  const edit = fc.oneof(
    fc.record({ op: fc.constant('move' as const), id: fc.constantFrom(...ids), at: fc.integer({ min: -50, max: 400 }) }),
    fc.record({ op: fc.constant('nudge' as const), id: fc.constantFrom(...ids), by: fc.constantFrom(-10, -1, 1, 10, 100, -100) }),
    fc.record({ op: fc.constant('reorder' as const), id: fc.constantFrom(...ids), by: fc.constantFrom(-1 as const, 1 as const) }),
    fc.record({ op: fc.constant('order' as const), order: fc.oneof(fc.constantFrom(...orders), fc.shuffledSubarray(ids, { minLength: 10, maxLength: 10 })) }),
    fc.record({ op: fc.constant('drag' as const), id: fc.constantFrom(...ids), path: fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 5 }) }),
    fc.constant({ op: 'undo' as const }),
  );
  function run(store: LedgerStore, e: { op: string; id?: string; at?: number; by?: number; order?: string[]; path?: number[] }) {
    const s = store.getState();
    if (e.op === 'move') s.moveEvent(e.id!, e.at!);
    else if (e.op === 'nudge') s.nudgeEvent(e.id!, e.by!);
    else if (e.op === 'reorder') s.reorderEvent(e.id!, e.by as -1 | 1);
    else if (e.op === 'order') s.applyOrder(e.order!);
    else if (e.op === 'drag') {
      s.beginDrag();
      for (const at of e.path!) store.getState().moveEvent(e.id!, at);
      store.getState().endDrag();
    } else s.undo();
  }
  it('each lane keeps begin → read → execute → write → commit, as the explorer sees it', () => {
    fc.assert(
      fc.property(fc.constantFrom('A-race-two-connections', 'B-race-interleaved'), fc.array(edit, { minLength: 1, maxLength: 12 }), (id, edits) => {
        const store = make();
        store.getState().loadBuiltin(id);
        for (const e of edits) {
          run(store, e);
          expect([...ledgerStepLanes(store.getState().scenario)].sort((a, b) => a[0].localeCompare(b[0]))).toEqual(LANES);
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
