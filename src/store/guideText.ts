import { GUIDE_BUTTON_TEXT } from './guideProgress';

/**
 * The guided path panel's words (issue 27, item 2), in one place for the languages issue (25); the
 * one button on the first paint has its three in `GUIDE_BUTTON_TEXT` (guideProgress.ts).
 */
export const GUIDE_TEXT = {
  heading: GUIDE_BUTTON_TEXT.heading,
  close: 'Close',
  count: (n: number, of: number) => `Exercise ${n} of ${of}`,
  doneCount: (n: number, of: number) => `${n} of ${of} done`,
  stepsLabel: 'Exercises',
  dotLabel: (n: number, title: string, done: boolean) => `Exercise ${n}: ${title}${done ? ' (done)' : ''}`,
  openScenario: (id: string) => `Open scenario ${id}`,
  metNow: 'Done: the run shows it.',
  doneBefore: 'Done earlier. The run no longer shows it — that is fine; move on or try again.',
  notYet: 'Not yet: the run does not show it.',
  otherScenario: 'This exercise runs on another scenario: open it first.',
  previous: '← Previous',
  next: 'Next →',
  hint: (n: number, of: number) => `Show hint ${n} of ${of}`,
  noMoreHints: 'No more hints',
  shareLink: (n: number) => `Link to exercise ${n} (opens the path here)`,
} as const;
