import type { Transcript } from '../wire/transcript';

/**
 * "Export review" from the Traffic page: the reliability review report (src/report, issue 12
 * item 6) made from the imported transcript alone — the inputs it cannot infer are listed in the
 * report as questions — rendered as Markdown. Loaded on demand (the report module and every
 * lab's built-ins, `allBuiltins`, are a separate chunk). `redact` hashes arguments and results in quoted messages;
 * `linkBase` (the page's address) makes every link complete, so they work from the saved file.
 */
export async function reviewMarkdownOf(t: Transcript, redact: boolean, linkBase?: string): Promise<{ filename: string; text: string; asked: number }> {
  const [{ buildReview, renderMarkdown }, { allBuiltins }] = await Promise.all([import('../report'), import('./allBuiltins')]);
  const builtins = allBuiltins();
  const report = buildReview({ transcript: t, builtins, redact, ...(linkBase ? { linkBase } : {}) });
  return { filename: `reliability-review${redact ? '-redacted' : ''}.md`, text: renderMarkdown(report.document), asked: report.ask.length };
}
