import type { ReactNode } from 'react';

/**
 * A lab's timeline panel: the section the invariants panel scrolls to (`#timeline-panel`), with a
 * heading for screen readers only, holding the lab's playback bar and timeline (`children`).
 * `headingId` ties the heading to the section (unique on the page).
 */
export function TimelineSection({ headingId, children }: { headingId: string; children: ReactNode }) {
  return (
    <section id="timeline-panel" className="panel timeline-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        Timeline
      </h2>
      {children}
    </section>
  );
}
