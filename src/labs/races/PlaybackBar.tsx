import { formatMs, formatTime } from '../../charts/format';
import { sliderToSpeed, speedToSlider, SPEED_SLIDER_MAX } from '../../store/playback';
import { selectCursor, selectPlaying, selectRangeEnd, selectSpeed, selectTrace } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';
import { Icon } from './icons';

/** Playhead controls: jump, step, play/pause, scrub, speed, and the virtual clock. */
export function PlaybackBar() {
  const store = useRacesStore();
  const cursorMs = useRaces(selectCursor);
  const playing = useRaces(selectPlaying);
  const speed = useRaces(selectSpeed);
  const rangeEnd = useRaces(selectRangeEnd);
  const endAt = useRaces((s) => selectTrace(s).endAt);
  const a = store.getState;
  const now = Math.floor(cursorMs);

  return (
    <div className="playback" role="group" aria-label="Playhead">
      <div className="playback-buttons">
        <button type="button" className="icon-btn" aria-label="Jump to start" title="Jump to start (Home)" onClick={() => a().toStart()}>
          <Icon name="start" />
        </button>
        <button type="button" className="icon-btn" aria-label="Step back" title="Step back (←)" onClick={() => a().stepBack()}>
          <Icon name="back" />
        </button>
        <button type="button" className="icon-btn play" aria-label={playing ? 'Pause' : 'Play'} title={playing ? 'Pause (Space)' : 'Play (Space)'} onClick={() => a().togglePlay()}>
          <Icon name={playing ? 'pause' : 'play'} />
        </button>
        <button type="button" className="icon-btn" aria-label="Step forward" title="Step forward (→)" onClick={() => a().stepForward()}>
          <Icon name="forward" />
        </button>
        <button type="button" className="icon-btn" aria-label="Jump to end" title="Jump to end (End)" onClick={() => a().toEnd()}>
          <Icon name="end" />
        </button>
      </div>
      <output className="clock" data-testid="clock" data-ms={now} aria-live="off">
        t = {formatMs(now)} ms
      </output>
      <label className="scrub">
        <span className="visually-hidden">Playhead position (ms)</span>
        <input
          type="range"
          min={0}
          max={rangeEnd}
          step={1}
          value={now}
          aria-valuetext={formatTime(now)}
          onChange={(e) => a().seek(Number(e.currentTarget.value))}
        />
      </label>
      <span className="muted small nowrap">last step {formatTime(endAt)}</span>
      <label className="speed">
        <span>Speed</span>
        <input
          type="range"
          min={0}
          max={SPEED_SLIDER_MAX}
          step={1}
          value={speedToSlider(speed)}
          aria-valuetext={`${formatMs(speed)} virtual ms per second`}
          onChange={(e) => a().setSpeed(sliderToSpeed(Number(e.currentTarget.value)))}
        />
        <span className="speed-value nowrap">{formatMs(speed)} ms/s</span>
      </label>
    </div>
  );
}
