import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJsNode } from '../../db/node';
import { openBytes, wrapSqlJs } from '../../db/sqljs';
import { loadBuiltinsFromDisk, lessonRuns } from '../../cli/review';
import { replayRaces, type RacesOutcome } from '../../sim/races';
import { decodeLink } from '../../store/labLink';
import { LAB_SCHEMAS, parseScenario } from '../../sim/labs';
import { importTranscript } from '../../wire/transcript';
import type { Json } from '../../sim/types';
import {
  buildReview,
  builtinWith,
  FIXTURES,
  fixtureExpectations,
  inferInputs,
  RACE_CASES,
  REFUSALS,
  renderHtml,
  renderMarkdown,
  replayEvidence,
  replayRun,
  runMismatches,
  type Builtins,
  type LabRun,
  type PracticeRun,
  type ReviewInputs,
  type ReviewOpener,
} from '..';

let open: ReviewOpener;
let builtins: Builtins;
beforeAll(async () => {
  const SQL = await loadSqlJsNode();
  open = ((bytes?: Uint8Array) => (bytes ? openBytes(SQL, bytes) : wrapSqlJs(new SQL.Database()))) as ReviewOpener;
  builtins = loadBuiltinsFromDisk();
});

/** A tiny GitHub-table parser: every table of a Markdown text as { head, rows } of cell texts (escaped pipes kept as `|`). */
function parseTables(md: string): { head: string[]; rows: string[][] }[] {
  const split = (line: string) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const lines = md.split('\n');
  const out: { head: string[]; rows: string[][] }[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].startsWith('|') && /^\|(---\|)+$/.test(lines[i + 1])) {
      const head = split(lines[i]);
      const rows: string[][] = [];
      let j = i + 2;
      for (; j < lines.length && lines[j].startsWith('|'); j++) rows.push(split(lines[j]));
      for (const r of rows) expect(r.length).toBe(head.length);
      out.push({ head, rows });
      i = j;
    }
  }
  return out;
}

/** Unescapes Markdown inline text (the renderer's backslash escapes). */
const unescape = (s: string) => s.replace(/\\([\\`*_[\]<>|#])/g, '$1');

/** Inputs under which none of the five refusal conditions holds. */
const GOOD: ReviewInputs = {
  transport: { kind: 'both', revision: '2026-07-28' },
  operation: { name: 'charge_account', tools: [{ name: 'charge_account', sideEffect: true, idempotencyKey: 'required' }, { name: 'get_balance', sideEffect: false }] },
  timeouts: { idleTimeoutMs: 30000, maxTimeoutMs: 180000, enforcedBy: 'client' },
  progress: { token: 'always', resetsIdle: true, maxPerSecond: 10, rateLimit: '20 calls/s per client, 429 with Retry-After' },
  retry: { policy: 'classified', ledger: 'shared-durable', externalEffect: 'upstream-key', resultsAliasStorage: false, backoff: 'full jitter' },
  sse: { queueCapacityEvents: 256, queuePolicy: 'lesson', proxyHeaders: true, proxyIdleTimeoutMs: 60000, keepAliveIntervalMs: 15000, reconnect: { baseMs: 250, capMs: 8000, jitter: 'full' }, refetchMethods: ['resources/read', 'tasks/get'] },
  tasks: { used: true, cancelWith: 'tasks/cancel', pollUntilTerminal: true },
};

function lesson() {
  const { runs, practice } = lessonRuns(builtins);
  return replayEvidence({ runs, practice }, builtins, open);
}

function review(inputs: ReviewInputs | undefined, runs?: LabRun[], practice?: PracticeRun[], redact = false) {
  const ev = runs || practice ? replayEvidence({ runs, practice }, builtins, open) : lesson();
  return buildReview({ inputs, runs: ev.runs, practice: ev.practice, builtins, redact });
}

describe('review report from the lesson\'s scenarios (races A–D, ledger, flow and task runs)', () => {
  it('has the fixed sections in order', () => {
    const md = renderMarkdown(review(GOOD).document);
    const titles = [...md.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(titles).toEqual(['Inputs', 'Cancellation wire per transport', 'Race table', 'Deadline policy', 'Retry classification', 'Atomic boundary', 'Flow control', 'Proxy SSE headers and idle policy', 'Reconnect plan', 'Durable task cancellation', 'Required fixtures', 'Verdict']);
  });

  it('the race table\'s four rows, parsed back from the Markdown, match the replayed outcomes of races A–D', () => {
    const md = renderMarkdown(review(GOOD).document);
    const race = parseTables(md).find((t) => t.head.join('|') === 'event order|server terminal state|final response|client behaviour');
    expect(race).toBeDefined();
    expect(race!.rows).toHaveLength(4);
    RACE_CASES.forEach((c, i) => {
      const r = (replayRaces(builtinWith(builtins, 'races', c.scenario)).outcome as RacesOutcome).requests[0];
      const [order, server, final, client] = race!.rows[i].map(unescape);
      expect(order.startsWith(`[${c.case} (${c.scenario})](#/races/${c.scenario}):`)).toBe(true);
      expect(server).toBe(r.serverState);
      expect(final).toBe(r.finalResponse ? `sent — ${r.responseFate}` : 'none');
      expect(client).toBe(`${r.state} at ${r.atMs} ms: ${r.reason}`);
    });
    // The lesson's own reading of the four rows.
    const cells = race!.rows.map((r) => [r[1], r[2], r[3].split(' at ')[0]]);
    expect(cells).toEqual([
      ['cancelled', 'none', 'cancelled'],
      ['completed', 'sent — ignored-late', 'cancelled'],
      ['cancelled', 'none', 'timeout-max'],
      ['cancelled', 'none', 'cancelled'],
    ]);
    expect(race!.rows[2][3]).toMatch(/^timeout-max at 2000 ms/);
    expect(race!.rows[0][0]).toMatch(/300 ms cancel → 320 ms cancel 1 arrives → 500 ms complete$/);
  });

  it('a race row follows the learner\'s own run (a bug shows in the table with its link)', () => {
    const bug = builtinWith(builtins, 'races', 'A-cancel-then-complete', { policy: { respondAfterCancel: true } });
    const rep = review(GOOD, [{ lab: 'races', scenario: bug }]);
    expect(rep.raceRows[0]).toMatchObject({ fromRun: true, serverTerminalState: 'cancelled', finalResponse: 'sent — ignored-late', href: '#/races/A-cancel-then-complete?policy.respondAfterCancel=true' });
    expect(rep.raceRows[1].fromRun).toBe(false);
  });

  it('the cancellation wire: stdio notifications/cancelled, 2026 HTTP a stream close, 2025 HTTP a POST', () => {
    const md = renderMarkdown(review(GOOD).document);
    const wire = md.split('## Cancellation wire per transport')[1].split('## ')[0];
    expect(wire).toContain('**stdio**: `notifications/cancelled` — [replay](#/races/D-http-stream-close?transport=stdio)');
    expect(wire).toContain('**Streamable HTTP (2026-07-28)**: `stream-close` — [replay](#/races/D-http-stream-close)');
    expect(wire).toContain('**Streamable HTTP (2025-11-25)**: `notifications/cancelled` — [replay](#/races/D-http-stream-close?revision=2025-11-25) · HTTP: POST');
    expect(wire).toContain('"reason": "User closed the dialog"');
  });

  it('one retry classification row per exposed mutation, from the lab\'s classifier', () => {
    const inputs: ReviewInputs = { ...GOOD, operation: { tools: [{ name: 'charge', sideEffect: true, idempotencyKey: 'required' }, { name: 'refund', sideEffect: true, idempotencyKey: 'none' }, { name: 'notify', sideEffect: true, idempotencyKey: 'optional' }, { name: 'deploy' }, { name: 'read', sideEffect: false }] } };
    const md = renderMarkdown(review(inputs).document);
    const t = parseTables(md).find((x) => x.head[0] === 'mutation')!;
    expect(t.rows.map((r) => [unescape(r[0]), r[2]])).toEqual([
      ['`charge`', 'CONDITIONAL'],
      ['`refund`', 'UNSAFE'],
      ['`notify`', 'UNSAFE'],
      ['`deploy`', 'unknown — ask'],
      ['`read`', 'SAFE'],
    ]);
    expect(t.rows[0][4]).toBe('[replay](#/ledger/D-same-key)');
    expect(t.rows[1][4]).toBe('[replay](#/ledger/C-no-key-retries)');
  });
});

describe('the twelve required fixtures', () => {
  it('each maps to a built-in scenario whose expectation reproduces it, with a link that decodes back to it', () => {
    expect(FIXTURES.map((f) => f.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const rows = review(GOOD).fixtures;
    for (const def of FIXTURES) {
      const row = rows[def.n - 1];
      if ('practice' in def.source) {
        expect(row.reference).toEqual({ practice: 'result-immutable', href: '#/ledger' });
        continue;
      }
      const src = def.source;
      const scenario = builtins[src.lab].find((s) => s.id === src.scenario)!;
      const named = scenario.expect!.find((e) => e.label === src.expectation)!;
      expect(named).toBeDefined();
      // The built-in, with the expectation's overrides, meets every expectation the fixture accepts first.
      const run = src.lab === 'ledger' ? null : replayRun(src.lab, builtinWith(builtins, src.lab, src.scenario, named.overrides as Record<string, Json> | undefined), builtins);
      if (run) expect(runMismatches(run, fixtureExpectations(def, builtins)[0])).toEqual([]);
      const href = (row.reference as { href: string }).href;
      if (!named.overrides) expect(href).toBe(`#/${src.lab}/${src.scenario}`);
      if (src.lab !== 'races') {
        const decoded = decodeLink(src.lab, href, builtins[src.lab], (v) => parseScenario(v, src.lab, LAB_SCHEMAS[src.lab]));
        expect(decoded.kind === 'ok' && decoded.scenario.id).toBe(src.scenario);
      }
    }
  });

  it('ledger fixtures are reproduced by their built-ins on real SQLite', () => {
    for (const def of FIXTURES) {
      if ('practice' in def.source || def.source.lab !== 'ledger') continue;
      const src = def.source;
      const named = builtins.ledger.find((s) => s.id === src.scenario)!.expect!.find((e) => e.label === src.expectation)!;
      const run = replayRun('ledger', builtinWith(builtins, 'ledger', src.scenario, named.overrides as Record<string, Json> | undefined), builtins, open);
      expect(runMismatches(run, fixtureExpectations(def, builtins)[0])).toEqual([]);
    }
  });

  it('from the lesson\'s runs all twelve pass; the Markdown table says so, each with its run link', () => {
    const rep = review(GOOD);
    expect(rep.fixtures.map((f) => f.status)).toEqual(Array(12).fill('passed'));
    const t = parseTables(renderMarkdown(rep.document)).find((x) => x.head.map(unescape).join('|') === '#|fixture|status|reproduced by|run')!;
    expect(t.rows.map((r) => [r[0], r[2]])).toEqual(FIXTURES.map((f) => [String(f.n), 'passed']));
    expect(t.rows[0][3]).toBe('[races/A-cancel-then-complete — "cancel wins: no response"](#/races/A-cancel-then-complete)');
    for (const r of t.rows) expect(r[4]).toMatch(/^\[run\]\(#\/(races|ledger|flow|resilience)/);
  });

  it('without evidence every fixture is not run', () => {
    const rep = buildReview({ inputs: GOOD, builtins });
    expect(rep.fixtures.map((f) => f.status)).toEqual(Array(12).fill('not run'));
    expect(rep.verdict.status).toBe('incomplete');
  });

  it('a status is true to its replay: buggy runs fail, runs that do not exercise a fixture are not run', () => {
    const run = (lab: LabRun['lab'], id: string, o?: Record<string, Json>): LabRun => ({ lab, scenario: builtinWith(builtins, lab, id, o) });
    const rep = review(
      GOOD,
      [
        run('races', 'A-cancel-then-complete', { policy: { respondAfterCancel: true } }),
        run('races', 'B-complete-then-cancel', { policy: { clientNeverSettles: true } }),
        run('races', 'D-http-stream-close', { transport: 'stdio' }),
        run('races', 'C-progress-idle-maximum', { policy: { progressResetsMaximum: true } }),
        run('ledger', 'C-no-key-retries'),
        run('ledger', 'D-same-key', { dedupe: 'none' }),
        run('flow', 'R1-coalesce-one-token', { policy: 'drop-silent' }),
        run('flow', 'F1-stalled-subscriber'),
        run('resilience', 'T1-abort-before-task-id', { policy: { forgetEarlyAbort: true } }),
        run('ledger', 'B-race-interleaved'),
      ],
      [{ check: 'result-immutable', variant: 'result-by-reference' }],
    );
    expect(rep.fixtures.map((f) => [f.n, f.status])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'not run'],
      [4, 'failed'],
      [5, 'passed'],
      [6, 'failed'],
      [7, 'failed'],
      [8, 'failed'],
      [9, 'not run'],
      [10, 'failed'],
      [11, 'failed'],
      [12, 'failed'],
    ]);
    expect(rep.fixtures[0].detail).toMatch(/finalResponse: expected false, got true/);
    expect(rep.fixtures[2].detail).toBe('the run does not exercise it: the run is on stdio, not streamable-http');
    expect(rep.fixtures[10].detail).toMatch(/executions: expected 1, got 2/);
    expect(rep.fixtures[11].detail).toMatch(/result-by-reference/);
    expect(rep.verdict.status).toBe('not production-ready');
    expect(rep.verdict.refusals.map((r) => r.condition)).toEqual(['fixture-1', 'fixture-2', 'fixture-4', 'fixture-6', 'fixture-7', 'fixture-8', 'fixture-10', 'fixture-11', 'fixture-12']);
  });

  it('any accepted correct policy passes fixture 11 (claim, BEGIN IMMEDIATE busy=error)', () => {
    for (const o of [{ policy: 'claim' }, { policy: 'immediate', busy: 'error' }] as Record<string, Json>[]) {
      const rep = review(GOOD, [{ lab: 'ledger', scenario: builtinWith(builtins, 'ledger', 'B-race-interleaved', o) }]);
      expect(rep.fixtures[10].status).toBe('passed');
    }
  });
});

describe('the verdict', () => {
  it('production-ready when no refusal condition holds and all twelve fixtures pass, with every evidence link', () => {
    const rep = review(GOOD);
    expect(rep.verdict).toMatchObject({ status: 'production-ready', refusals: [], missing: [] });
    expect(rep.verdict.evidence).toHaveLength(12);
    for (const e of rep.verdict.evidence) expect(e.href).toMatch(/^#\/(races|ledger|flow|resilience)/);
    const md = renderMarkdown(rep.document);
    const verdict = md.split('## Verdict')[1];
    expect(verdict.trim().startsWith('**production-ready**')).toBe(true);
    expect(verdict.match(/\[proof\]\(#\//g)).toHaveLength(12);
  });

  const refuse: Record<(typeof REFUSALS)[number], ReviewInputs> = {
    'retry-on-timeout-only': { ...GOOD, retry: { ...GOOD.retry, policy: 'timeout-only' } },
    'process-local-ledger': { ...GOOD, retry: { ...GOOD.retry, ledger: 'process-local' } },
    'effect-outside-boundary': { ...GOOD, retry: { ...GOOD.retry, externalEffect: 'outside' } },
    'results-alias-storage': { ...GOOD, retry: { ...GOOD.retry, resultsAliasStorage: true } },
    'queue-capacity-unspecified': { ...GOOD, sse: { ...GOOD.sse, queueCapacityEvents: null } },
  };
  for (const id of REFUSALS) {
    it(`refuses "production-ready" when ${id}`, () => {
      const rep = review(refuse[id]);
      expect(rep.verdict.status).toBe('not production-ready');
      expect(rep.verdict.refusals.map((r) => r.condition)).toEqual([id]);
      expect(rep.verdict.refusals[0].href).toMatch(/^#\/(ledger|flow)/);
      const md = renderMarkdown(rep.document);
      expect(md.split('## Verdict')[1]).toContain(`- \`${id}\`: `);
      expect(md.split('## Verdict')[1].trim().startsWith('**not production-ready**')).toBe(true);
    });
  }

  it('an unspecified queue capacity refuses even when no flow run could infer one', () => {
    const { sse, ...rest } = GOOD;
    const rep = buildReview({ inputs: { ...rest, sse: { ...sse, queueCapacityEvents: undefined } }, builtins });
    expect(rep.verdict.refusals.map((r) => r.condition)).toContain('queue-capacity-unspecified');
  });

  it('unknown inputs keep the verdict incomplete and are asked for', () => {
    const rep = review({ sse: { queueCapacityEvents: 64 } });
    expect(rep.verdict.status).toBe('incomplete');
    expect(rep.verdict.missing.map((m) => m.condition)).toEqual(['retry-on-timeout-only', 'process-local-ledger', 'effect-outside-boundary']);
    expect(rep.ask.map((a) => a.field)).toEqual(expect.arrayContaining(['retry.policy', 'retry.ledger', 'retry.externalEffect', 'sse.proxyHeaders']));
    expect(renderMarkdown(rep.document)).toContain('**Unknown — ask:**');
  });
});

describe('inputs inferred from the evidence', () => {
  it('lab runs fill transport, timeouts, queue, tasks and the mutation; the ledger\'s storage is asked, never inferred', () => {
    const ev = lesson();
    const { inputs, ask } = inferInputs(ev);
    expect(inputs.transport).toEqual({ kind: 'streamable-http', revision: '2026-07-28' });
    expect(inputs.timeouts).toMatchObject({ idleTimeoutMs: 3000, maxTimeoutMs: 15000 });
    expect(inputs.sse).toMatchObject({ queueCapacityEvents: 1024, queuePolicy: 'disconnect' });
    expect(inputs.tasks).toEqual({ used: true, cancelWith: 'tasks/cancel' });
    expect(inputs.retry).toEqual({ resultsAliasStorage: false });
    expect(ask.map((a) => a.field)).toEqual(expect.arrayContaining(['retry.policy', 'retry.ledger', 'retry.externalEffect']));
  });

  it('a transcript fills transport, revision, tools and their keys; side effects are asked', () => {
    const t = importTranscript(transcriptText());
    if (!t.ok) throw new Error(t.reason);
    const { inputs, ask } = inferInputs({ transcript: t.transcript });
    expect(inputs.transport?.kind).toBe('stdio');
    expect(inputs.operation?.tools).toEqual([{ name: 'charge_account', idempotencyKey: 'none' }]);
    expect(ask.map((a) => a.field)).toContain('retry.policy');
    const rep = buildReview({ transcript: t.transcript, builtins });
    expect(rep.retryRows).toEqual([expect.objectContaining({ tool: 'charge_account', verdict: 'unknown — ask' })]);
  });
});

function transcriptText(): string {
  const call = (id: number, ms: number) =>
    JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1) + ms).toISOString(), dir: 'req', transport: 'stdio', jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'charge_account', arguments: { account: 'acct-7', cents: 1200 } } });
  return [call(1, 0), call(2, 500)].join('\n');
}

describe('redaction and HTML', () => {
  it('--redact hashes arguments and results in every quoted message; keys, ids and methods stay', () => {
    const t = importTranscript(transcriptText());
    if (!t.ok) throw new Error(t.reason);
    const plain = renderMarkdown(buildReview({ transcript: t.transcript, builtins }).document);
    const redacted = renderMarkdown(buildReview({ transcript: t.transcript, builtins, redact: true }).document);
    expect(plain).toContain('"account": "acct-7"');
    expect(plain).toContain('"reason": "User closed the dialog"');
    expect(redacted).not.toContain('acct-7');
    expect(redacted).not.toContain('User closed the dialog');
    expect(redacted).toMatch(/"account": "sha256:[0-9a-f]{16}"/);
    expect(redacted).toContain('"method": "tools/call"');
    expect(redacted).toContain('"requestId": "req-7"');
    expect(redacted).toContain('duplicate-call');
  });

  it('the HTML page has the same sections, escapes every text and links only hashes', () => {
    const inputs: ReviewInputs = { ...GOOD, operation: { name: '<script>alert(1)</script>', tools: [{ name: 'a|b <i>', sideEffect: true, idempotencyKey: 'none' }] } };
    const rep = review(inputs);
    const html = renderHtml(rep.document);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>a|b &lt;i&gt;</code>');
    expect((html.match(/<h2>/g) ?? []).length).toBe(rep.document.sections.length);
    expect(html).toContain('<a href="#/races/A-cancel-then-complete">');
    expect(html).toContain('@media print');
    const md = renderMarkdown(rep.document);
    expect(md).toContain('# Reliability review: \\<script\\>alert(1)\\</script\\>');
    const t = parseTables(md).find((x) => x.head[0] === 'mutation')!;
    expect(t.rows[0][0]).toBe('`a|b <i>`');
  });
});
