import { TONES, toneClass } from './tone';

/** The chart's shared SVG definitions: the plot's clip path, one fade gradient (open spans) and one arrowhead per tone. Ids start with `uid`. */
export function TimelineDefs({ uid, plotLeft, plotRight, height }: { uid: string; plotLeft: number; plotRight: number; height: number }) {
  return (
    <defs>
      <clipPath id={`${uid}-plot`}>
        <rect x={plotLeft - 8} y={0} width={plotRight - plotLeft + 16} height={height} />
      </clipPath>
      {TONES.map((t) => (
        <linearGradient key={t} id={`${uid}-fade-${t}`} x1="0" x2="1" y1="0" y2="0">
          <stop offset="0" style={{ stopColor: `var(--tone-${t})`, stopOpacity: 0.9 }} />
          <stop offset="1" style={{ stopColor: `var(--tone-${t})`, stopOpacity: 0 }} />
        </linearGradient>
      ))}
      {TONES.map((t) => (
        <marker key={t} id={`${uid}-head-${t}`} className={`tl-head ${toneClass(t)}`} viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0L10,5L0,10Z" />
        </marker>
      ))}
    </defs>
  );
}
