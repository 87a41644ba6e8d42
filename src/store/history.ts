/**
 * Undo/redo history as plain data (no React, no DOM). `past` holds older values, newest last;
 * `future` holds values undone, the next one to redo last. Every function returns a new object.
 */
export interface History<T> {
  readonly past: readonly T[];
  readonly future: readonly T[];
}

/** Default number of undo steps kept. */
export const HISTORY_LIMIT = 100;

export function emptyHistory<T>(): History<T> {
  return { past: [], future: [] };
}

/** Records `current` as an undo point before a change; clears the redo stack. Keeps at most `limit` entries. */
export function record<T>(history: History<T>, current: T, limit = HISTORY_LIMIT): History<T> {
  const past = history.past.length >= limit ? history.past.slice(history.past.length - limit + 1) : history.past.slice();
  past.push(current);
  return { past, future: [] };
}

/** Steps back: returns the value to restore and the new history, or null when there is nothing to undo. */
export function undo<T>(history: History<T>, current: T): { value: T; history: History<T> } | null {
  if (history.past.length === 0) return null;
  const value = history.past[history.past.length - 1];
  return { value, history: { past: history.past.slice(0, -1), future: [...history.future, current] } };
}

/** Steps forward again after an undo, or null when there is nothing to redo. */
export function redo<T>(history: History<T>, current: T): { value: T; history: History<T> } | null {
  if (history.future.length === 0) return null;
  const value = history.future[history.future.length - 1];
  return { value, history: { past: [...history.past, current], future: history.future.slice(0, -1) } };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.past.length > 0;
}

export function canRedo<T>(history: History<T>): boolean {
  return history.future.length > 0;
}
