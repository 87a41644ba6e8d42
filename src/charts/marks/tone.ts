import type { Tone } from '../timelineTypes';

/** Every tone, for the per-tone gradients and arrowheads in the chart's <defs>. */
export const TONES: readonly Tone[] = ['neutral', 'client', 'server', 'wire', 'worker', 'ok', 'bad', 'warn', 'info', 'muted'];

/** The class that sets `--c` to the tone's theme colour (timeline.css). */
export const toneClass = (tone: Tone) => `tl-tone-${tone}`;
