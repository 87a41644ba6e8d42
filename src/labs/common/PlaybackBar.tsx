import './common.css';
import { formatMs, formatTime } from '../../charts/format';
import { sliderToSpeed, speedToSlider, SPEED_SLIDER_MAX } from '../../store/playback';
import { Icon } from './icons';

/** What the playhead buttons call; every lab's store provides these actions. */
export type PlaybackControls = {
  toStart(): void;
  stepBack(): void;
  stepForward(): void;
  toEnd(): void;
  /** Moves the playhead to `ms` (virtual milliseconds). */
  seek(ms: number): void;
  /** Omit with `setSpeed` for a lab without continuous play (step only). */
  togglePlay?(): void;
  /** Speed in virtual milliseconds per real second. */
  setSpeed?(speed: number): void;
};

/** One icon button of the bar: its label (also the accessible name) and its key in the title. */
function StepButton({ label, keyName, icon, onClick }: { label: string; keyName: string; icon: 'start' | 'back' | 'forward' | 'end'; onClick: () => void }) {
  return (
    <button type="button" className="icon-btn" aria-label={label} title={`${label} (${keyName})`} onClick={() => onClick()}>
      <Icon name={icon} />
    </button>
  );
}

/**
 * The playhead bar shared by every lab: jump, step, play/pause, scrub, speed and the virtual clock.
 * Times are virtual milliseconds; `rangeEndMs` bounds the scrubber, `endAtMs` is the last step's
 * time. Play and speed appear only when `controls` has `togglePlay` and `setSpeed`.
 */
export function PlaybackBar(props: { cursorMs: number; rangeEndMs: number; endAtMs: number; playing?: boolean; speed?: number; controls: PlaybackControls }) {
  const { rangeEndMs, endAtMs, playing = false, speed, controls: c } = props;
  const now = Math.floor(props.cursorMs);
  return (
    <div className="playback" role="group" aria-label="Playhead">
      <div className="playback-buttons">
        <StepButton label="Jump to start" keyName="Home" icon="start" onClick={c.toStart} />
        <StepButton label="Step back" keyName="←" icon="back" onClick={c.stepBack} />
        {c.togglePlay && (
          <button type="button" className="icon-btn play" aria-label={playing ? 'Pause' : 'Play'} title={playing ? 'Pause (Space)' : 'Play (Space)'} onClick={() => c.togglePlay?.()}>
            <Icon name={playing ? 'pause' : 'play'} />
          </button>
        )}
        <StepButton label="Step forward" keyName="→" icon="forward" onClick={c.stepForward} />
        <StepButton label="Jump to end" keyName="End" icon="end" onClick={c.toEnd} />
      </div>
      <output className="clock" data-testid="clock" data-ms={now} aria-live="off">
        t = {formatMs(now)} ms
      </output>
      <label className="scrub">
        <span className="visually-hidden">Playhead position (ms)</span>
        <input type="range" min={0} max={rangeEndMs} step={1} value={now} aria-valuetext={formatTime(now)} onChange={(e) => c.seek(Number(e.currentTarget.value))} />
      </label>
      <span className="muted small nowrap">last step {formatTime(endAtMs)}</span>
      {c.setSpeed && speed !== undefined && (
        <label className="speed">
          <span>Speed</span>
          <input
            type="range"
            min={0}
            max={SPEED_SLIDER_MAX}
            step={1}
            value={speedToSlider(speed)}
            aria-valuetext={`${formatMs(speed)} virtual ms per second`}
            onChange={(e) => c.setSpeed?.(sliderToSpeed(Number(e.currentTarget.value)))}
          />
          <span className="speed-value nowrap">{formatMs(speed)} ms/s</span>
        </label>
      )}
    </div>
  );
}
