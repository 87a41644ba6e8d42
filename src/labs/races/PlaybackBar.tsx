import { selectCursor, selectPlaying, selectRangeEnd, selectSpeed, selectTrace } from '../../store/racesStore';
import { PlaybackBar as SharedPlaybackBar } from '../common/PlaybackBar';
import { useRaces, useRacesStore } from './context';

/** The races lab's playhead: the shared bar bound to the races store. */
export function PlaybackBar() {
  const store = useRacesStore();
  const cursorMs = useRaces(selectCursor);
  const playing = useRaces(selectPlaying);
  const speed = useRaces(selectSpeed);
  const rangeEnd = useRaces(selectRangeEnd);
  const endAt = useRaces((s) => selectTrace(s).endAt);
  return <SharedPlaybackBar cursorMs={cursorMs} rangeEndMs={rangeEnd} endAtMs={endAt} playing={playing} speed={speed} controls={store.getState()} />;
}
