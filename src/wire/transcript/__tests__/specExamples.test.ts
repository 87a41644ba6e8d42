import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPEC_FIXTURES, SPEC_FIXTURES_DIR, specExampleFiles } from '../../../../scripts/spec-examples';
import { runCheck, runCheckStreaming } from '../../../cli/check';

/**
 * The golden 2026-07-28 transcripts (fixtures/spec-2026/, written by `npm run spec-examples` from
 * the specification's own examples): fresh, and replayed through `check` — the streaming entry the
 * CLI runs, and the whole-file one — with the findings the spec text implies: none where the
 * examples make a correct session, the named rule where an example (or the session the examples
 * make) breaks one.
 */

const root = path.resolve(__dirname, '../../../..');
const dir = path.join(root, SPEC_FIXTURES_DIR);

/** One finding as asserted: check id, severity, the file lines of the entries involved. */
type Expected = [check: string, severity: 'error' | 'warning' | 'info', lines: number[]];

/**
 * What the spec implies, per fixture (the sentence is in the fixture's `spec`, README.md of the
 * folder). `missed`: findings the spec implies that `check` does not report yet (false negatives,
 * named in an `it.todo`); `extra`: findings `check` reports that the spec does not imply (false
 * positives, likewise). Both are empty when the lab agrees with the spec.
 */
const EXPECTED: Record<string, { findings: Expected[]; missed?: { why: string; findings: Expected[] }; extra?: { why: string; findings: Expected[] } }> = {
  'tools-call-progress.jsonl': { findings: [] },
  'cancellation-stdio.jsonl': { findings: [] },
  'cancellation-http.jsonl': { findings: [] },
  'mrtr.jsonl': { findings: [] },
  // The CallToolRequest example declares clientCapabilities {}; the InputRequiredResult example asks for elicitation and sampling.
  'mrtr-undeclared-capability.jsonl': { findings: [['capability-undeclared', 'error', [2, 3]]] },
  'missing-capability.jsonl': { findings: [] },
  'version-negotiation.jsonl': { findings: [] },
  'http-headers.jsonl': { findings: [] },
  // The client's Mcp-Name does not match params.name; the server rejected it as it MUST (400, -32020): no http-header-not-rejected.
  'http-header-mismatch.jsonl': { findings: [['http-headers-2026', 'error', [2]]] },
  // The schema's read-resource-result-response example has no ttlMs / cacheScope (caching: MUST include caching hints).
  'caching-hints-missing.jsonl': { findings: [['schema', 'error', [3]]] },
  'errors.jsonl': { findings: [] },
  'subscriptions.jsonl': { findings: [] },
  // prompts/list_changed was not requested; resources/updated is for a URI the listen example did not subscribe to.
  'subscriptions-unrequested.jsonl': {
    findings: [
      ['subscription-unrequested', 'error', [2, 5]],
      ['subscription-unrequested', 'error', [2, 6]],
    ],
  },
  'tasks-flow.jsonl': { findings: [] },
  'tasks-cancel.jsonl': { findings: [] },
  // notifications/cancelled for the tools/call answered with the task handle (not cancel-finished-id: no race was lost).
  'tasks-cancel-notification.jsonl': { findings: [['task-cancel-notification', 'error', [2, 3, 4]]] },
  // Both extension examples answer tasks/get with resultType "task" where it MUST be "complete".
  'tasks-failed.jsonl': { findings: [['schema', 'error', [3]]] },
  'tasks-completed-tool-error.jsonl': { findings: [['schema', 'error', [3]]] },
  'tasks-errors.jsonl': { findings: [] },
};

/** The revision each golden transcript must be checked as. */
const REVISION_WANTED = '2026-07-28';
interface CheckDoc {
  revision: string;
  skipped: unknown[];
  findings: { check: string; severity: Expected[1]; lines: number[] }[];
}

const findingsOf = (doc: CheckDoc): Expected[] => doc.findings.map((f) => [f.check, f.severity, f.lines]);

describe('golden 2026-07-28 transcripts from the spec examples', () => {
  it('are fresh: regenerating writes the same bytes, and nothing else is in the folder', () => {
    const files = specExampleFiles();
    expect(readdirSync(dir).sort()).toEqual([...files.keys()].sort());
    for (const [file, text] of files) expect(readFileSync(path.join(dir, file), 'utf8'), `${file} is stale: run npm run spec-examples`).toBe(text);
  });

  it('every fixture has its expectation', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(SPEC_FIXTURES.map((f) => f.file).sort());
  });

  for (const fixture of SPEC_FIXTURES) {
    const want = EXPECTED[fixture.file];
    const file = path.join(dir, fixture.file);
    it(`${fixture.file}: ${want.findings.length === 0 && !want.missed ? 'clean' : 'the findings the spec implies'} — ${fixture.title}`, async () => {
      const streamed = await runCheckStreaming([file]);
      const whole = runCheck([file]);
      expect(streamed.stderr).toBe('');
      const doc = JSON.parse(streamed.stdout) as CheckDoc;
      expect(JSON.parse(whole.stdout) as CheckDoc).toEqual(doc);
      expect(doc.skipped).toEqual([]);
      expect(doc.revision).toBe(REVISION_WANTED);
      // What check reports today: the spec's findings, less those it misses, plus its false ones.
      const reported = [...want.findings, ...(want.extra?.findings ?? [])];
      expect(findingsOf(doc)).toEqual(expect.arrayContaining(reported));
      expect(findingsOf(doc)).toHaveLength(reported.length);
      expect(streamed.code).toBe(reported.some(([, severity]) => severity !== 'info') ? 3 : 0);
    });
    if (want.missed) it.todo(`${fixture.file}: check misses ${want.missed.findings.map(([c, , l]) => `${c} (lines ${l.join(', ')})`).join('; ')} — ${want.missed.why}`);
    if (want.extra) it.todo(`${fixture.file}: check reports ${want.extra.findings.map(([c, s, l]) => `${c} ${s} (lines ${l.join(', ')})`).join('; ')} the spec does not imply — ${want.extra.why}`);
  }
});
