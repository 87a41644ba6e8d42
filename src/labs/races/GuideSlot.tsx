import { lazy, Suspense } from 'react';
import { useStore } from 'zustand';
import { createGuideProgress, GUIDE_BUTTON_TEXT, type GuideProgressStore } from '../../store/guideProgress';

/** The path's panel and its exercises: a lazy chunk, fetched when the path opens. */
const GuidePanel = lazy(() => import('./GuidePanel').then((m) => ({ default: m.GuidePanel })));

let progress: GuideProgressStore | null = null;
/** The Races path's progress of this tab (made once, from localStorage and the address's `guide=<n>`). */
function racesGuideProgress(): GuideProgressStore {
  progress ??= createGuideProgress('races', window.location.hash);
  return progress;
}

/** The guided path's place in the side column: its panel when open, else one button that opens it. */
export function GuideSlot() {
  const store = racesGuideProgress();
  const open = useStore(store, (s) => s.open);
  if (!open) {
    return (
      <p className="guide-open">
        <button type="button" className="btn" onClick={() => store.setState((p) => ({ ...p, open: true }))} data-testid="guide-start" title={GUIDE_BUTTON_TEXT.openHint}>
          {GUIDE_BUTTON_TEXT.open}
        </button>
      </p>
    );
  }
  return (
    <Suspense fallback={<section className="panel guide-pending" aria-busy="true" aria-label={GUIDE_BUTTON_TEXT.heading} />}>
      <GuidePanel progress={store} />
    </Suspense>
  );
}
