import { useEffect } from 'react';

/** What the keyboard and the play loop drive; every lab store with a playhead has these actions. */
export interface PlaybackKeyActions {
  togglePlay(): void;
  stepForward(): void;
  stepBack(): void;
  toStart(): void;
  toEnd(): void;
  undo(): void;
  redo(): void;
}

/** True when the key goes to a text field, a select or editable content (never steal typing). */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable;
}

/**
 * True when the key goes to a text field being typed in (text-like inputs, textareas, editable
 * content), where Ctrl+Z must undo the typing. A checkbox, radio, range, select or button keeps
 * focus after a mouse change, and undo still belongs to the lab there.
 */
export function isTextEntry(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || el.isContentEditable) return true;
  if (tag !== 'input') return false;
  const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
  return !['checkbox', 'radio', 'range', 'button', 'submit', 'reset', 'file', 'color'].includes(type);
}

/**
 * The labs' keyboard: Space play/pause, ←/→ step, Home/End jump, Ctrl+Z undo, Ctrl+Shift+Z or
 * Ctrl+Y redo. Undo/redo work from anywhere in the lab except a text field being typed in
 * (`isTextEntry`); the other keys are ignored in any form control, when a focused control already handled the key
 * (`defaultPrevented`, e.g. a timeline handle nudged with ←/→), and Space on a button or link
 * (it presses that button). `actions` is read on every key, so pass a getter of fresh state.
 */
export function usePlaybackKeys(actions: () => PlaybackKeyActions): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const a = actions();
      const mod = e.ctrlKey || e.metaKey;
      if (isTextEntry(e.target)) return;
      if (isTypingTarget(e.target) && !(mod && /^[zZyY]$/.test(e.key))) return;
      if (mod && (e.key === 'z' || e.key === 'Z')) {
        if (e.shiftKey) a.redo();
        else a.undo();
        e.preventDefault();
        return;
      }
      if (mod && (e.key === 'y' || e.key === 'Y')) {
        a.redo();
        e.preventDefault();
        return;
      }
      if (mod || e.altKey) return;
      const onButton = (e.target as HTMLElement | null)?.closest?.('button, a, summary, [role="slider"]');
      switch (e.key) {
        case ' ':
          if (onButton) return;
          a.togglePlay();
          break;
        case 'ArrowRight':
          a.stepForward();
          break;
        case 'ArrowLeft':
          a.stepBack();
          break;
        case 'Home':
          a.toStart();
          break;
        case 'End':
          a.toEnd();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}

/**
 * Advances a playhead with requestAnimationFrame while `playing`: calls `tick(realMs)` each frame
 * (at most 100 ms per frame, so a background tab does not jump) until `isPlaying()` turns false.
 */
export function usePlayLoop(playing: boolean, tick: (realMs: number) => void, isPlaying: () => boolean): void {
  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let last = performance.now();
    const frame = (now: number) => {
      const dt = Math.min(now - last, 100);
      last = now;
      tick(dt);
      if (isPlaying()) raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [playing, tick, isPlaying]);
}
