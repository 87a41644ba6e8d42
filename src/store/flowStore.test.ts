import { describe, expect, it } from 'vitest';
import { createFlowStore } from './flowStore';

describe('flow store', () => {
  it('a garbage link or an unknown id shows the errors and names the scenario shown instead', () => {
    const garbage = createFlowStore({ hash: '#/flow?scenario=garbage' }).getState();
    expect(garbage.scenario.id).toBe('F1-stalled-subscriber');
    expect(garbage.error?.title).toBe('The link does not hold a valid flow scenario; showing "F1 · A subscriber stalls for 59 s at 100 events/s" instead');
    expect(garbage.error?.errors).toEqual([expect.stringMatching(/^scenario \(in the link\): /)]);
    const unknown = createFlowStore({ hash: '#/flow/nope' }).getState();
    expect(unknown.error?.errors).toEqual([expect.stringMatching(/"nope"/)]);
    expect(createFlowStore({ hash: '#/flow' }).getState().error).toBeNull();
  });

  it('F1 opens on the lesson policy with no invariant violated; the unbounded row is one action away and undoable', () => {
    const store = createFlowStore();
    const s = store.getState();
    expect(s.scenario.config.policy).toBe('lesson');
    expect(s.trace.invariants.filter((i) => i.firstViolation)).toEqual([]);
    s.applyOverrides({ policy: 'unbounded' });
    expect(store.getState().trace.outcome.summary.peakDepth).toBe(5900);
    expect(store.getState().trace.invariants.find((i) => i.name === 'buffer-within-capacity')?.firstViolation).not.toBeNull();
    store.getState().undo();
    expect(store.getState().scenario.config.policy).toBe('lesson');
  });

  it('opens a scenario with the playhead at 0, like the other labs; an edit keeps it, and a playhead at the end follows the new end', () => {
    const store = createFlowStore({ hash: '#/flow/F1-stalled-subscriber' });
    const s = () => store.getState();
    expect(s().rangeEndMs).toBeGreaterThan(0);
    expect(s().cursorMs).toBe(0);
    s().toEnd();
    s().loadBuiltin('R1-coalesce-one-token');
    expect(s().scenario.id).toBe('R1-coalesce-one-token');
    expect(s().cursorMs).toBe(0);
    s().seek(250);
    s().applyOverrides({ policy: 'unbounded' });
    expect(s().cursorMs).toBe(250);
    s().toEnd();
    s().applyOverrides({ policy: 'lesson' });
    expect(s().cursorMs).toBe(s().rangeEndMs);
  });

  it('steps, jumps, plays and stops at the end of the range', () => {
    const store = createFlowStore({ hash: '#/flow/R1-coalesce-one-token' });
    const s = () => store.getState();
    s().toStart();
    expect(s().cursorMs).toBe(0);
    s().stepForward();
    expect(s().cursorMs).toBe(s().stepTimes.find((t) => t > 0));
    s().stepBack();
    expect(s().cursorMs).toBe(0);
    s().setSpeed(1000);
    s().togglePlay();
    expect(s().playing).toBe(true);
    s().tick(250);
    expect(s().cursorMs).toBe(250);
    s().tick(60_000);
    expect(s().playing).toBe(false);
    expect(s().cursorMs).toBe(s().rangeEndMs);
    s().togglePlay();
    expect(s().cursorMs).toBe(0);
  });

  it('another lab\'s file is named in one line and the scenario is kept; a bad file lists its fields', () => {
    const store = createFlowStore();
    expect(store.getState().importText(JSON.stringify({ format: 1, lab: 'ledger', id: 'x', title: 'x', config: {}, events: [] }), 'The file l.json')).toBe(false);
    expect(store.getState().error).toEqual({ title: 'The file l.json is not a flow scenario; the previous scenario is kept', errors: ['lab: this is a "ledger" scenario; open it in the Ledger lab (#/ledger)'] });
    expect(store.getState().importText('{"format":1,"lab":"flow","id":"x","title":"x","config":{"capacityEvents":1},"events":[]}')).toBe(false);
    expect(store.getState().error?.errors).toEqual([expect.stringMatching(/^config\.capacityEvents: /)]);
    expect(store.getState().scenario.id).toBe('F1-stalled-subscriber');
  });
});
