import type { LabId } from '../sim/labIds';

/** A problem report: a title and one line per problem, each `field.path: what is wrong — what to do`. */
export interface LabError {
  title: string;
  errors: string[];
}

/**
 * The banner titles every lab uses, in one voice: what was refused or ignored, and what the page
 * shows instead. Problem lines come from the validators and name their field.
 */
export function labTexts(lab: LabId) {
  return {
    cannotRun: 'The simulation could not run this scenario; the previous scenario is kept',
    builtinsSkipped: 'Some built-in scenario files are invalid and were skipped',
    unknownScenario: 'Unknown scenario',
    settingRefused: 'That setting is not valid; the previous settings are kept',
    overridesRefused: 'These overrides do not make a valid scenario; the previous scenario is kept',
    importRefused: (source: string) => `${source} is not a valid ${lab} scenario; the previous scenario is kept`,
    otherLab: (source: string) => `${source} is not a ${lab} scenario; the previous scenario is kept`,
    /** A bad link when the page opens: the first built-in is shown. */
    badLinkShown: (title: string) => `The link does not hold a valid ${lab} scenario; showing "${title}" instead`,
    /** A bad link followed in the tab: the current scenario stays (and goes back in the address). */
    badLinkKept: (title: string) => `The link does not hold a valid ${lab} scenario; the previous scenario is kept — still showing "${title}" instead`,
    /**
     * A link whose scenario is good but some parameters are not: the named scenario shown. Each
     * problem line already says it was ignored (`foo: unknown link parameter — ignored; …`), so the
     * title does not say it again (the walkthrough read "ignored" twice).
     */
    partsIgnored: (title: string, builtin: boolean) =>
      `Parts of the link are not valid; showing ${builtin ? `the built-in "${title}" it names` : `the scenario it holds, "${title}"`}`,
    /** Alt+←/→ on an event with nothing at its millisecond on that side: the status line says why nothing moved. */
    noTieNeighbour: (id: string, atMs: number, direction: -1 | 1) =>
      `${id} has no event at ${atMs} ms ${direction < 0 ? 'before' : 'after'} it to swap with — Alt+←/→ reorders events at the same millisecond; move it onto another event's time with ←/→ first`,
    /** ←/→ at an end of the timeline: the status line says why nothing moved. */
    atTimelineEnd: (id: string, atMs: number, deltaMs: number) =>
      deltaMs < 0 ? `${id} is at ${atMs} ms, the start of the timeline — it cannot move earlier; move the other events later instead` : `${id} is at ${atMs} ms, the end of the timeline — it cannot move later`,
  };
}
