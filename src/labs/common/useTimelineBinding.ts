import { useCallback, useMemo } from 'react';
import { useStore } from 'zustand';
import type { LabStore } from '../../store/labStore';

/**
 * The timeline binding every lab uses: the playhead, the drawn range, the selection, the snap
 * times, the zoom reset key and the edit handlers, all from the lab store. Spread it into
 * `<Timeline>` and add the lab's own lanes, marks and label. `reorder: false` leaves out the
 * same-millisecond reorder (a lab without a tie order to edit); `select: false` the selection.
 */
export function useTimelineBinding<T, X>(store: LabStore<T, X>, options: { select?: boolean; reorder?: boolean; snap?: boolean } = {}) {
  const { select = true, reorder = true, snap = true } = options;
  const cursorMs = useStore(store, (s) => s.cursorMs);
  const rangeEnd = useStore(store, (s) => s.rangeEndMs);
  const selectedId = useStore(store, (s) => s.selectedEventId);
  const resetKey = useStore(store, (s) => s.loadCount);
  const stepTimes = useStore(store, (s) => s.stepTimes);
  const domain = useMemo(() => [0, rangeEnd] as const, [rangeEnd]);
  const handlers = useMemo(() => {
    const a = store.getState;
    return {
      onSeek: (ms: number) => a().seek(ms),
      onHandleMove: (id: string, ms: number) => a().moveEvent(id, ms),
      onHandleDragStart: () => a().beginDrag(),
      onHandleDragEnd: () => a().endDrag(),
      onHandleNudge: (id: string, deltaMs: number) => a().nudgeEvent(id, deltaMs),
      onHandleSelect: (id: string) => a().select(id),
      onHandleReorder: (id: string, direction: -1 | 1) => a().reorderEvent(id, direction),
    };
  }, [store]);
  const { onHandleSelect, onHandleReorder, ...edit } = handlers;
  const pick = useCallback(<V,>(on: boolean, v: V) => (on ? v : undefined), []);
  return {
    cursorMs,
    domain,
    resetKey,
    ...edit,
    onHandleSelect: pick(select, onHandleSelect),
    selectedId: select ? selectedId : undefined,
    onHandleReorder: pick(reorder, onHandleReorder),
    snapTimes: pick(snap, stepTimes),
  };
}
