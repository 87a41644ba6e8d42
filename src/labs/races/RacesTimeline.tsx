import { useMemo } from 'react';
import { Timeline } from '../../charts/Timeline';
import { selectTrace } from '../../store/racesStore';
import { useTimelineBinding } from '../common/useTimelineBinding';
import { useRaces, useRacesStore } from './context';
import { racesMarksCache, racesStaticCache } from './timelineMarks';

/** The races timeline: the generic chart fed with this lab's marks; edits go straight to the store. */
export function RacesTimeline() {
  const store = useRacesStore();
  const trace = useRaces(selectTrace);
  const binding = useTimelineBinding(store);
  const { cursorMs } = binding;
  // Remembers the last drawing: the next trace (a fork on edit) takes over the marks of the steps it shares.
  const drawing = useMemo(() => racesStaticCache(), []);
  const asOf = useMemo(() => racesMarksCache(), []);
  const st = useMemo(() => drawing(trace), [drawing, trace]);
  const marks = useMemo(() => asOf(st, trace, cursorMs), [asOf, st, trace, cursorMs]);

  return (
    <>
      <Timeline {...binding} lanes={st.layout.lanes} marks={marks} label={`Timeline of ${trace.scenario.title}: lanes client, wire, server, worker`} handleHelpId="handle-help" />
      <p id="handle-help" className="help">
        <strong>Read:</strong> the client bar is the call (open-ended with a fading arrow while its outcome is unknown at the playhead); dashed orange = idle deadline
        with its window shaded, red = maximum deadline, both as of the playhead; arrows are messages from sender to receiver; the worker bar is the server's work.
        Hollow, struck-through marks were ignored; faint marks lie after the playhead. <strong>Edit:</strong> drag a scripted event (◆ client, ● server) — it snaps to
        10 ms, hold Shift for 1 ms — or focus it (Tab) and use ←/→ (10 ms), Shift+←/→ (1 ms), PageUp/PageDown (bigger steps), Alt+←/→ or [ ] to change its order
        among events at the same millisecond.
      </p>
    </>
  );
}
