import { useCallback, useMemo } from 'react';
import { Timeline } from '../../charts/Timeline';
import { selectCursor, selectLoadCount, selectRangeEnd, selectSelectedEventId, selectTrace } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';
import { racesMarks, racesStatic } from './timelineMarks';

/** The races timeline: the generic chart fed with this lab's marks; edits go straight to the store. */
export function RacesTimeline() {
  const store = useRacesStore();
  const trace = useRaces(selectTrace);
  const cursorMs = useRaces(selectCursor);
  const rangeEnd = useRaces(selectRangeEnd);
  const selectedId = useRaces(selectSelectedEventId);
  const loadCount = useRaces(selectLoadCount);
  const stepTimes = useRaces((s) => s.stepTimes);

  const st = useMemo(() => racesStatic(trace), [trace]);
  const marks = useMemo(() => racesMarks(st, trace, cursorMs), [st, trace, cursorMs]);
  const domain = useMemo(() => [0, rangeEnd] as const, [rangeEnd]);

  const onSeek = useCallback((ms: number) => store.getState().seek(ms), [store]);
  const onMove = useCallback((id: string, ms: number) => store.getState().moveEvent(id, ms), [store]);
  const onDragStart = useCallback(() => store.getState().beginDrag(), [store]);
  const onDragEnd = useCallback(() => store.getState().endDrag(), [store]);
  const onNudge = useCallback((id: string, delta: number) => store.getState().nudgeEvent(id, delta), [store]);
  const onReorder = useCallback((id: string, dir: -1 | 1) => store.getState().reorderEvent(id, dir), [store]);
  const onSelect = useCallback((id: string) => store.getState().select(id), [store]);

  return (
    <>
      <Timeline
        lanes={st.layout.lanes}
        marks={marks}
        domain={domain}
        cursorMs={cursorMs}
        label={`Timeline of ${trace.scenario.title}: lanes client, wire, server, worker`}
        onSeek={onSeek}
        onHandleMove={onMove}
        onHandleDragStart={onDragStart}
        onHandleDragEnd={onDragEnd}
        onHandleNudge={onNudge}
        onHandleReorder={onReorder}
        onHandleSelect={onSelect}
        selectedId={selectedId}
        snapTimes={stepTimes}
        resetKey={loadCount}
        handleHelpId="handle-help"
      />
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
