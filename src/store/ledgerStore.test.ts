import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJsNode } from '../db/node';
import { memoryOpener } from '../db/sqljs';
import type { OpenDatabase } from '../sim/ledger';
import { loadScenarios } from '../sim/ledger/__tests__/helpers';
import { createLedgerStore, queryAtPlayhead, selectStateAt } from './ledgerStore';

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
    expect(s().error?.errors).toContain('config.policy: Invalid option: expected one of "naive"|"deferred"|"immediate"|"claim"');
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
    s().moveEvent('B-read', 10); // same ms as A-read, later in the file
    const order = () => s().scenario.events.filter((e) => e.at === 10).map((e) => e.id);
    expect(order()).toEqual(['A-read', 'B-read']);
    s().reorderEvent('B-read', -1);
    expect(order()).toEqual(['B-read', 'A-read']);
    s().reorderEvent('B-read', -1);
    expect(order()).toEqual(['B-read', 'A-read']);
  });
});
