/**
 * The reliability review report (issue 12 item 6): the lesson's reviewer's seven inputs, evidence
 * from lab runs and/or an imported transcript, the fixed sections, the twelve required fixtures and
 * the verdict — as Markdown or a print-friendly HTML page. Headless and browser-safe.
 */
export * from './types';
export * from './doc';
export { FIXTURES, evaluateFixtures, fixtureExpectations, type FixtureDef } from './fixtures';
export { inferInputs, mergeInputs, missingInputs, QUESTIONS, type AskedInput, type InferredInput } from './infer';
export { replayEvidence, replayRun, runPractice, runMismatches, shareHref, builtinWith, type ReviewOpener } from './replay';
export { buildReview, raceRows, verdictOf, RACE_CASES, REFUSALS, type BuildReviewOptions, type RaceRow, type RefusalId, type ReviewReport } from './build';
export { renderMarkdown, renderHtml, escapeMarkdown, escapeHtml } from './render';
export { parseReviewInputs, reviewInputsSchema } from './inputsSchema';
