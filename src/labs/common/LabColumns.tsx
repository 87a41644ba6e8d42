import type { ReactNode } from 'react';
import { TimelineSection } from './TimelineSection';

/**
 * A lab page's two columns (the `races-grid` layout; one column on a narrow screen): the main
 * column opens with the timeline panel (`TimelineSection` holding `playback`, then `timeline`) and
 * continues with `main`; the side column is an `<aside>` named `sideLabel` holding `side`.
 * `headingId` ties the timeline's heading to its section (unique on the page).
 */
export function LabColumns({ headingId, playback, timeline, main, side, sideLabel }: { headingId: string; playback: ReactNode; timeline: ReactNode; main: ReactNode; side: ReactNode; sideLabel: string }) {
  return (
    <div className="races-grid">
      <div className="races-main">
        <TimelineSection headingId={headingId}>
          {playback}
          {timeline}
        </TimelineSection>
        {main}
      </div>
      <aside className="races-side" aria-label={sideLabel}>
        {side}
      </aside>
    </div>
  );
}
