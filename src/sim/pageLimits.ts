/**
 * Why a lab page refuses to draw `count` scripted events, or null: each event is a mark the learner
 * can drag, so a page draws at most `max` (the CLI replays bigger files: the format allows 200,000).
 * One wording for every lab: `events: … — replay it with \`npm run replay -- FILE\` instead`.
 */
export function drawLimitProblem(lab: string, max: number, count: number): string | null {
  return count > max
    ? `events: the ${lab} lab page draws at most ${max.toLocaleString('en-US')} events (each is a mark you can drag); this scenario has ${count.toLocaleString('en-US')} — replay it with \`npm run replay -- FILE\` instead`
    : null;
}
