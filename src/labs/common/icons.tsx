/** Small inline SVG icons (no icon font, no emoji font needed). Decorative: the buttons carry the names. */
const PATHS = {
  start: 'M4 3h2v10H4zM13 3v10L7 8z',
  back: 'M12 3v10L5 8zM3 3h2v10H3z',
  play: 'M5 3v10l8-5z',
  pause: 'M4 3h3v10H4zM9 3h3v10H9z',
  forward: 'M4 3v10l7-5zM11 3h2v10h-2z',
  end: 'M3 3v10l6-5zM10 3h2v10h-2z',
  clock: 'M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13zm0 1.5a5 5 0 1 1 0 10A5 5 0 0 1 8 3zm-.75 1.5v4.1l3.1 1.9.75-1.25-2.35-1.45V4.5z',
} as const;

export function Icon({ name, size = 14 }: { name: keyof typeof PATHS; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false" className="icon">
      <path d={PATHS[name]} fill="currentColor" fillRule="evenodd" />
    </svg>
  );
}
