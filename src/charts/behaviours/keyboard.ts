import { niceStep } from '../layout';
import { handleOf, type Behaviour } from './types';

/** Read at every key press: the snap steps (ms) and the visible window (ms), whose tenth is a page. */
export interface KeyboardState {
  snapMs: number;
  fineSnapMs: number;
  visible: readonly [number, number];
}

/** What a key does to a handle: move it by `deltaMs`, or reorder it among same-time handles. */
export type KeyMove = { type: 'nudge'; id: string; deltaMs: number } | { type: 'reorder'; id: string; direction: -1 | 1 };

/** The parts of a keyboard event the mapping reads. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * The move key `k` asks of handle `id` (a slider, WAI-ARIA APG): Alt+←/↑ or [ reorders earlier,
 * Alt+→/↓ or ] later; ←/↓ and →/↑ nudge by `snapMs` (Shift: `fineSnapMs`); PageDown/PageUp by a
 * tenth of the visible range rounded to 1, 2 or 5 × 10^n (at least one step). Null: not ours.
 */
export function keyToMove(k: KeyPress, id: string, s: KeyboardState): KeyMove | null {
  const step = k.shiftKey ? s.fineSnapMs : s.snapMs;
  const page = Math.max(step, niceStep((s.visible[1] - s.visible[0]) / 10));
  if ((k.altKey && (k.key === 'ArrowLeft' || k.key === 'ArrowUp')) || k.key === '[') return { type: 'reorder', id, direction: -1 };
  if ((k.altKey && (k.key === 'ArrowRight' || k.key === 'ArrowDown')) || k.key === ']') return { type: 'reorder', id, direction: 1 };
  if (k.key === 'ArrowLeft' || k.key === 'ArrowDown') return { type: 'nudge', id, deltaMs: -step };
  if (k.key === 'ArrowRight' || k.key === 'ArrowUp') return { type: 'nudge', id, deltaMs: step };
  if (k.key === 'PageDown') return { type: 'nudge', id, deltaMs: -page };
  if (k.key === 'PageUp') return { type: 'nudge', id, deltaMs: page };
  return null;
}

/** Keyboard on handles; `handleKey` is what the keydown listener runs (true: the key was used). */
export interface KeyboardInstance extends Behaviour<{ layer: Element }> {
  handleKey(k: KeyPress, id: string): boolean;
}

/**
 * Keyboard and focus on the handles layer (delegated to `[data-handle]`): a key with a move
 * (`keyToMove`) calls `onMove` and is consumed (default prevented, propagation stopped, so the
 * page's playback keys do not also run); focusing a handle calls `onFocus(id)`.
 */
export function XYKeyboard({ getState, onMove, onFocus }: { getState(): KeyboardState; onMove(move: KeyMove): void; onFocus(id: string): void }): KeyboardInstance {
  let layer: Element | null = null;
  const handleKey = (k: KeyPress, id: string) => {
    const move = keyToMove(k, id, getState());
    if (move) onMove(move);
    return move !== null;
  };
  const idOf = (e: Event) => handleOf(e.target, layer ?? undefined)?.getAttribute('data-handle') ?? null;
  const onKeyDown = (e: KeyboardEvent) => {
    const id = idOf(e);
    if (id && handleKey(e, id)) {
      e.preventDefault();
      e.stopPropagation();
    }
  };
  const onFocusIn = (e: FocusEvent) => {
    const id = idOf(e);
    if (id) onFocus(id);
  };
  const detach = () => {
    layer?.removeEventListener('keydown', onKeyDown as EventListener);
    layer?.removeEventListener('focusin', onFocusIn as EventListener);
    layer = null;
  };
  return {
    handleKey,
    update({ layer: next }) {
      if (next === layer) return;
      detach();
      layer = next;
      next.addEventListener('keydown', onKeyDown as EventListener);
      next.addEventListener('focusin', onFocusIn as EventListener);
    },
    destroy: detach,
  };
}
