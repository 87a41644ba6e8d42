import { describe, expect, it } from 'vitest';
import { canRedo, canUndo, emptyHistory, record, redo, undo } from './history';

describe('history', () => {
  it('undoes and redoes in order', () => {
    let h = emptyHistory<number>();
    let current = 1;
    h = record(h, current);
    current = 2;
    h = record(h, current);
    current = 3;
    expect(canUndo(h)).toBe(true);
    const u1 = undo(h, current)!;
    expect(u1.value).toBe(2);
    const u2 = undo(u1.history, u1.value)!;
    expect(u2.value).toBe(1);
    expect(undo(u2.history, u2.value)).toBeNull();
    const r1 = redo(u2.history, u2.value)!;
    expect(r1.value).toBe(2);
    const r2 = redo(r1.history, r1.value)!;
    expect(r2.value).toBe(3);
    expect(canRedo(r2.history)).toBe(false);
  });

  it('a new change clears the redo stack', () => {
    let h = record(emptyHistory<string>(), 'a');
    const u = undo(h, 'b')!;
    expect(canRedo(u.history)).toBe(true);
    h = record(u.history, u.value);
    expect(canRedo(h)).toBe(false);
  });

  it('keeps at most `limit` entries, dropping the oldest', () => {
    let h = emptyHistory<number>();
    for (let i = 0; i < 10; i++) h = record(h, i, 3);
    expect(h.past).toEqual([7, 8, 9]);
  });

  it('never mutates its input', () => {
    const h = record(emptyHistory<number>(), 1);
    const frozen = Object.freeze({ past: Object.freeze([...h.past]), future: Object.freeze([] as number[]) });
    expect(() => undo(frozen, 2)).not.toThrow();
    expect(() => record(frozen, 2)).not.toThrow();
  });
});
