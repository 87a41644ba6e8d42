import { describe, expect, it } from 'vitest';
import { addressStep, createAddressWriter, NUDGE_IDLE_MS, type AddressFields, type WriterClock } from './addressWriter';

/** A hand-driven clock: time moves only when the test says (`advance`), timers fire in order. */
function fakeClock() {
  let nowMs = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  const clock: WriterClock = {
    now: () => nowMs,
    setTimeout(run, ms) {
      const id = nextId++;
      timers.set(id, { at: nowMs + ms, run });
      return id;
    },
    clearTimeout: (id) => void timers.delete(id),
  };
  const advance = (ms: number) => {
    const end = nowMs + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      nowMs = due[1].at;
      due[1].run();
    }
    nowMs = end;
  };
  return { clock, advance, pending: () => timers.size };
}

describe('createAddressWriter', () => {
  it('coalesces a run of keyboard nudges into one trailing write after the keys rest', () => {
    const { clock, advance } = fakeClock();
    let writes = 0;
    const writer = createAddressWriter(() => writes++, clock);
    // 20 key repeats, 30 ms apart (a held arrow key), then the key is released.
    for (let i = 0; i < 20; i++) {
      writer.nudged();
      advance(30);
    }
    expect(writes).toBe(0);
    advance(NUDGE_IDLE_MS - 31);
    expect(writes).toBe(0);
    advance(1);
    expect(writes).toBe(1);
    advance(10_000);
    expect(writes).toBe(1);
  });

  it('a plain edit still writes at once, and one pending write covers later edits', () => {
    const { clock, advance } = fakeClock();
    let writes = 0;
    const writer = createAddressWriter(() => writes++, clock);
    writer.schedule(false);
    expect(writes).toBe(1);
    writer.schedule(false);
    writer.schedule(false);
    expect(writes).toBe(1);
    advance(60);
    expect(writes).toBe(2);
  });

  it('flush writes a pending nudge write once; a write asked for during a drag goes to a timer', () => {
    const { clock, advance, pending } = fakeClock();
    let writes = 0;
    const writer = createAddressWriter(() => writes++, clock);
    writer.nudged();
    advance(100);
    writer.flush();
    expect(writes).toBe(1);
    expect(pending()).toBe(0);
    writer.flush();
    expect(writes).toBe(1);
    advance(1_000);
    writer.schedule(true);
    expect(writes).toBe(1);
    advance(30);
    expect(writes).toBe(2);
  });

  it("a drag's end is written on a timer, never inside the release (its own task, after the release is drawn)", () => {
    const { clock, advance } = fakeClock();
    let writes = 0;
    const writer = createAddressWriter(() => writes++, clock);
    advance(10_000); // long after any write: an edit now would write at once
    const during: AddressFields = { scenario: { v: 2 }, cursorMs: 0, playing: false, dragging: true };
    const ended: AddressFields = { ...during, dragging: false };
    const step = addressStep(ended, during);
    expect(step).toEqual({ kind: 'schedule', defer: true });
    writer.schedule(step!.kind === 'schedule' && step!.defer);
    expect(writes).toBe(0);
    advance(30);
    expect(writes).toBe(1);
  });
});

describe('addressStep', () => {
  const base: AddressFields = { scenario: { v: 1 }, cursorMs: 0, playing: false, dragging: false };
  it('an edit writes at once, a drag move waits for the end, a nudge waits for the keys to rest, a paused seek writes', () => {
    expect(addressStep({ ...base, scenario: { v: 2 } }, base)).toEqual({ kind: 'schedule', defer: false });
    expect(addressStep({ ...base, scenario: { v: 2 }, dragging: true }, { ...base, dragging: true })).toBeNull();
    expect(addressStep({ ...base, scenario: { v: 2 }, lastNudge: { id: 'a' } }, base)).toEqual({ kind: 'nudged' });
    expect(addressStep({ ...base, cursorMs: 5 }, base)).toEqual({ kind: 'schedule', defer: false });
    expect(addressStep({ ...base, cursorMs: 5, playing: true }, { ...base, playing: true })).toBeNull();
    expect(addressStep(base, base)).toBeNull();
  });
});
