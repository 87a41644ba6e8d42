import { createStore } from 'zustand/vanilla';
import { GUIDE_LINK_PARAM } from './labLink';

/**
 * A guided path's progress per lab (issue 27, item 2): open or not, the current exercise, the
 * exercises met. Kept in localStorage (a reload or a return keeps it) and readable from a share
 * link's `guide=<n>` (exercise n, 1-based). Small and eager; the path's panel and data are lazy.
 */
export interface GuideProgress {
  open: boolean;
  /** Index of the current exercise (0-based). */
  index: number;
  /** Ids of the exercises the run has shown. */
  done: readonly string[];
}

export { GUIDE_LINK_PARAM };

/** The words of the button that opens a guided path (first paint); the panel's are in guideText.ts. */
export const GUIDE_BUTTON_TEXT = {
  heading: 'Guided path',
  open: 'Guided path: learn by doing',
  openHint: 'Short exercises from the lesson that tick themselves when the run shows them.',
} as const;


const KEY = (lab: string) => `mcp-lab.guide.${lab}`;
const EMPTY: GuideProgress = { open: false, index: 0, done: [] };

function load(lab: string): GuideProgress {
  try {
    const v = JSON.parse(localStorage.getItem(KEY(lab)) ?? 'null') as Partial<GuideProgress> | null;
    if (v === null || typeof v !== 'object') return EMPTY;
    return { open: v.open === true, index: Number.isInteger(v.index) && (v.index as number) >= 0 ? (v.index as number) : 0, done: Array.isArray(v.done) ? v.done.filter((x): x is string => typeof x === 'string') : [] };
  } catch {
    return EMPTY;
  }
}

/** The exercise index a hash's `guide=<n>` names (0-based), or null. */
export function guideParam(hash: string): number | null {
  const q = hash.indexOf('?');
  const raw = q < 0 ? null : new URLSearchParams(hash.slice(q + 1)).get(GUIDE_LINK_PARAM);
  return raw !== null && /^[1-9]\d{0,2}$/.test(raw) ? Number(raw) - 1 : null;
}

/** The progress store of `lab`'s guided path: from localStorage, opened at the link's exercise when `hash` names one. */
export function createGuideProgress(lab: string, hash: string) {
  const fromLink = guideParam(hash);
  const start = load(lab);
  const store = createStore<GuideProgress>(() => (fromLink === null ? start : { ...start, open: true, index: fromLink }));
  store.subscribe((s) => {
    try {
      localStorage.setItem(KEY(lab), JSON.stringify(s));
    } catch {
      // progress not kept
    }
  });
  return store;
}

export type GuideProgressStore = ReturnType<typeof createGuideProgress>;
