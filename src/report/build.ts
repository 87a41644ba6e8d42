import type { LabId } from '../sim/labIds';
import type { Json, Scenario } from '../sim/types';
import type { RacesOutcome } from '../sim/races';
import type { FlowTrace } from '../sim/flow';
import { streamDrop, reconnectPlan } from '../sim/flow/reconnect';
import { classifyRetry } from '../sim/resilience';
import type { TasksOutcome } from '../sim/resilience/tasks';
import { checkTranscript, redactMessage, type Transcript } from '../wire/transcript';
import { b, c, code, link, list, p, table, type Block, type Inline, type ReviewDocument, type Section } from './doc';
import { evaluateFixtures } from './fixtures';
import { inferInputs, mergeInputs, type AskedInput, type InferredInput } from './infer';
import { builtinWith, replayRun, shareHref } from './replay';
import type { Builtins, FixtureRow, PracticeResult, ReplayedRun, RetryRow, ReviewInputs, Verdict, VerdictReason } from './types';

/** What `buildReview` needs: the replayed evidence, the user's inputs, the built-ins (links, reference runs). */
export interface BuildReviewOptions {
  inputs?: ReviewInputs;
  runs?: readonly ReplayedRun[];
  practice?: readonly PracticeResult[];
  transcript?: Transcript;
  builtins: Builtins;
  /** Hash arguments and results in every quoted wire message (src/wire/transcript/redact.ts). */
  redact?: boolean;
  /** Where the lab is served (`http://localhost:5173/`): links are written as complete addresses on it (`ReviewDocument.linkBase`). */
  linkBase?: string;
}

/** One row of the race table, as data (the Markdown table is rendered from these). */
export interface RaceRow {
  case: string;
  scenario: string;
  href: string;
  /** True when the row comes from the learner's run; false: the built-in replayed as shipped. */
  fromRun: boolean;
  eventOrder: string;
  serverTerminalState: string;
  finalResponse: string;
  clientBehaviour: string;
}

/** The review: resolved inputs, what was inferred and asked, each section's data, the fixtures and the verdict, plus the document to render. */
export interface ReviewReport {
  inputs: ReviewInputs;
  inferred: InferredInput[];
  ask: AskedInput[];
  raceRows: RaceRow[];
  retryRows: RetryRow[];
  fixtures: FixtureRow[];
  verdict: Verdict;
  document: ReviewDocument;
}

/** The lesson's four race rows and the races scenario that shows each. */
export const RACE_CASES = [
  { case: 'cancel then complete', scenario: 'A-cancel-then-complete' },
  { case: 'complete then cancel', scenario: 'B-complete-then-cancel' },
  { case: 'timeout then late response', scenario: 'C-progress-idle-maximum' },
  { case: 'disconnect during progress', scenario: 'D-http-stream-close' },
] as const;

/** `cell: the verdict's five refusal conditions` — ids used by the verdict and its tests. */
export const REFUSALS = ['retry-on-timeout-only', 'process-local-ledger', 'effect-outside-boundary', 'results-alias-storage', 'queue-capacity-unspecified'] as const;
export type RefusalId = (typeof REFUSALS)[number];

/** The runs of one lab, in order (a section of the report cites the lesson's runs of its lab). */
const runsOf = (runs: readonly ReplayedRun[], lab: LabId) => runs.filter((r) => r.lab === lab);

const lastRun = (runs: readonly ReplayedRun[], lab: LabId, id?: string, pred?: (r: ReplayedRun) => boolean) =>
  [...runs].reverse().find((r) => r.lab === lab && (id === undefined || r.scenario.id === id) && (!pred || pred(r)));

/** The race rows: the learner's last run of each of races A–D, or the built-in replayed as shipped. */
export function raceRows(runs: readonly ReplayedRun[], builtins: Builtins): RaceRow[] {
  return RACE_CASES.map(({ case: name, scenario }) => {
    const own = lastRun(runs, 'races', scenario);
    const run = own ?? replayRun('races', builtinWith(builtins, 'races', scenario), builtins);
    const outcome = run.trace.outcome as RacesOutcome;
    const r = outcome.requests[0];
    const order = run.trace.steps.map((s) => `${s.at} ms ${s.entry.label}`).join(' → ');
    return {
      case: name,
      scenario,
      href: run.href,
      fromRun: own !== undefined,
      eventOrder: order,
      serverTerminalState: r.serverState,
      finalResponse: r.finalResponse ? `sent — ${r.responseFate}` : 'none',
      clientBehaviour: `${r.state} at ${r.atMs ?? '—'} ms: ${r.reason}`,
    };
  });
}

const quote = (m: Json, redact: boolean) => JSON.stringify(redact ? redactMessage(m) : m, null, 2);

function cancellationWire(builtins: Builtins, redact: boolean): Block[] {
  const cases: { label: string; overrides?: Record<string, Json> }[] = [
    { label: 'stdio', overrides: { transport: 'stdio' } },
    { label: 'Streamable HTTP (2026-07-28)' },
    { label: 'Streamable HTTP (2025-11-25)', overrides: { revision: '2025-11-25' } },
  ];
  const blocks: Block[] = [];
  for (const k of cases) {
    const run = replayRun('races', builtinWith(builtins, 'races', 'D-http-stream-close', k.overrides), builtins);
    const r = (run.trace.outcome as RacesOutcome).requests[0];
    const effect = run.trace.steps.filter((s) => s.entry.label === 'cancel').flatMap((s) => s.effects).find((e) => e.from === 'client');
    blocks.push(p(b(k.label), ': ', c(r.cancelSignal), ' — ', link('replay', run.href), effect?.http ? ` · HTTP: ${effect.http}` : ''));
    if (effect?.message !== undefined) blocks.push(code(quote(effect.message, redact)));
  }
  blocks.push(p('The notification is fire-and-forget: no response. On 2026 HTTP nothing is POSTed; the stream close is the signal, and the server sends nothing more for that request.'));
  return blocks;
}

const fmtMs = (v: number | null | undefined) => (v === undefined ? 'unknown — ask' : v === null ? 'none' : `${v} ms`);
const ask = (v: unknown, text?: string): string => (v === undefined ? 'unknown — ask' : text ?? String(v));

function retryRows(inputs: ReviewInputs, builtins: Builtins): RetryRow[] {
  const tools = inputs.operation?.tools ?? [];
  const hrefUnsafe = shareHref('ledger', builtinWith(builtins, 'ledger', 'C-no-key-retries'), builtins);
  const hrefConditional = shareHref('ledger', builtinWith(builtins, 'ledger', 'D-same-key'), builtins);
  const hrefSafe = shareHref('resilience', builtinWith(builtins, 'resilience', 'B3-retry-budget'), builtins);
  return tools
    .filter((t) => t.sideEffect !== false)
    .map((t) => {
      if (t.sideEffect === undefined) return { tool: t.name, sideEffect: null, idempotencyKey: t.idempotencyKey ?? 'unknown — ask', verdict: 'unknown — ask' as const, why: 'does it change state? — ask', href: hrefUnsafe };
      const key = t.idempotencyKey === 'required' ? 'key' : t.idempotencyKey === 'none' ? null : undefined;
      const cls = classifyRetry({ sideEffect: true, idempotencyKey: key, origin: { kind: 'client-timeout' } });
      const why = t.idempotencyKey === 'optional' ? `${cls.reason} (the key is optional: a call without one is UNSAFE)` : t.idempotencyKey === undefined ? `${cls.reason} (key unknown — ask)` : cls.reason;
      const verdict = t.idempotencyKey === 'optional' ? 'UNSAFE' : cls.verdict;
      return { tool: t.name, sideEffect: true, idempotencyKey: t.idempotencyKey ?? 'unknown — ask', verdict, why, href: verdict === 'CONDITIONAL' ? hrefConditional : hrefUnsafe };
    })
    .concat(tools.filter((t) => t.sideEffect === false).map((t) => ({ tool: t.name, sideEffect: false, idempotencyKey: t.idempotencyKey ?? '—', verdict: 'SAFE' as const, why: classifyRetry({ sideEffect: false }).reason, href: hrefSafe })));
}

/** The verdict's refusal and missing-input reasons, each with the link that shows the failure mode. */
export function verdictOf(inputs: ReviewInputs, fixtures: readonly FixtureRow[], hrefOf: (lab: LabId, id: string, o?: Record<string, Json>) => string): Verdict {
  const refusals: VerdictReason[] = [];
  const missing: VerdictReason[] = [];
  const r = inputs.retry ?? {};
  const links: Record<RefusalId, string> = {
    'retry-on-timeout-only': hrefOf('ledger', 'F-lost-response', { clientKey: 'per-attempt' }),
    'process-local-ledger': hrefOf('ledger', 'E-dispatched-twice', { dedupe: 'none' }),
    'effect-outside-boundary': hrefOf('ledger', 'B-race-interleaved'),
    'results-alias-storage': '#/ledger',
    'queue-capacity-unspecified': hrefOf('flow', 'F1-stalled-subscriber', { policy: 'unbounded' }),
  };
  const check = (id: RefusalId, holds: boolean | undefined, text: string, askText: string) => {
    if (holds === undefined) missing.push({ condition: id, text: askText, href: links[id] });
    else if (holds) refusals.push({ condition: id, text, href: links[id] });
  };
  check('retry-on-timeout-only', r.policy === undefined ? undefined : r.policy === 'timeout-only', 'the retry policy is only "retry on timeout": a timed-out mutation may have run, and a blind repeat runs it again', 'retry policy unknown — ask');
  check('process-local-ledger', r.ledger === undefined ? undefined : r.ledger === 'process-local', 'the idempotency ledger is process-local: a restart or another replica forgets prior commits', 'idempotency storage unknown — ask');
  check('effect-outside-boundary', r.externalEffect === undefined ? undefined : r.externalEffect === 'outside', 'the external effect sits outside the atomic boundary with no outbox and no upstream key: a crash between effect and record leaves a retry ambiguous', 'where the external effect commits is unknown — ask');
  check('results-alias-storage', r.resultsAliasStorage, 'returned records alias mutable storage: a caller\'s mutation corrupts later replays', 'whether replays return defensive copies is unknown — ask');
  const cap = inputs.sse?.queueCapacityEvents;
  check('queue-capacity-unspecified', cap === undefined || cap === null, 'queue capacity is unspecified: memory grows with a slow consumer', '');
  for (const f of fixtures) {
    if (f.status === 'failed') refusals.push({ condition: `fixture-${f.n}`, text: `fixture ${f.n} (${f.title}) failed: ${f.detail}`, href: f.runHref ?? f.reference.href });
    else if (f.status === 'not run') missing.push({ condition: `fixture-${f.n}`, text: `fixture ${f.n} (${f.title}) not run`, href: f.reference.href });
  }
  const evidence: VerdictReason[] = fixtures.filter((f) => f.status === 'passed').map((f) => ({ condition: `fixture-${f.n}`, text: `fixture ${f.n} (${f.title}) passed: ${f.detail}`, href: f.runHref ?? f.reference.href }));
  const status = refusals.length > 0 ? 'not production-ready' : missing.length > 0 ? 'incomplete' : 'production-ready';
  return { status, refusals, missing, evidence };
}

function flowSection(inputs: ReviewInputs, runs: readonly ReplayedRun[], builtins: Builtins, hrefOf: (lab: LabId, id: string, o?: Record<string, Json>) => string): Block[] {
  const s = inputs.sse ?? {};
  const blocks: Block[] = [
    p('Buffer bound: ', b(s.queueCapacityEvents === undefined || s.queueCapacityEvents === null ? 'unspecified — ask' : `${s.queueCapacityEvents} events`), '; policy at capacity: ', c(ask(s.queuePolicy)), '; progress rate: ', fmtPerSecond(inputs.progress?.maxPerSecond), '.'),
    p('The rule: coalesce adjacent progress of one token, drop the oldest progress at capacity, mark the stream for an authoritative refetch, never drop the final response — ', link('R1 under the lesson policy', hrefOf('flow', 'R1-coalesce-one-token')), ', ', link('the unbounded bug', hrefOf('flow', 'R1-coalesce-one-token', { policy: 'unbounded' })), '.'),
  ];
  const flowRuns = runsOf(runs, 'flow');
  if (flowRuns.length) {
    blocks.push(
      table(
        ['run', 'capacity', 'policy', 'peak depth', 'dropped', 'finals delivered / dropped', 'final kept'],
        flowRuns.map((r) => {
          const sum = (r.trace.outcome as { summary: Record<string, Json> }).summary;
          const cfg = r.scenario.config as Record<string, Json>;
          const kept = sum.finalsDropped === 0 ? 'yes' : 'NO';
          return [[link(r.scenario.id, r.href)], [String(cfg.capacityEvents ?? '—')], [String(cfg.policy ?? '—')], [String(sum.peakDepth ?? '—')], [String(sum.dropped ?? '—')], [`${sum.deliveredFinals ?? '—'} / ${sum.finalsDropped ?? '—'}`], [kept]];
        }),
      ),
    );
  } else blocks.push(p('No flow run in the evidence — ', link('run R1', shareHref('flow', builtinWith(builtins, 'flow', 'R1-coalesce-one-token'), builtins)), '.'));
  return blocks;
}

const fmtPerSecond = (v: number | null | undefined) => (v === undefined ? 'unknown — ask' : v === null ? 'no limit' : `${v}/s per token`);

function reconnectSection(inputs: ReviewInputs, runs: readonly ReplayedRun[], hrefOf: (lab: LabId, id: string, o?: Record<string, Json>) => string, redact: boolean): Block[] {
  const s = inputs.sse ?? {};
  const rc = s.reconnect;
  const blocks: Block[] = [
    p('Backoff: ', rc ? `base ${rc.baseMs ?? '?'} ms, cap ${rc.capMs ?? '?'} ms, jitter ${rc.jitter ?? '?'}` : 'unknown — ask', ' — ', link('a herd without jitter', hrefOf('flow', 'F3-restart-herd')), ', ', link('with ±1000 ms jitter', hrefOf('flow', 'F3-restart-herd', { fleet: { jitterMs: 1000 } })), '.'),
  ];
  const run = lastRun(runs, 'flow', undefined, (r) => streamDrop(r.trace as unknown as FlowTrace, 0, { eventStoreEvents: 1, inFlightSafe: false }) !== null);
  const methods = new Set<string>(s.refetchMethods ?? []);
  if (run) {
    const drop = streamDrop(run.trace as unknown as FlowTrace, (run.trace as unknown as FlowTrace).endAt, { eventStoreEvents: 1, inFlightSafe: false });
    if (drop) {
      const plan = reconnectPlan('2026-07-28', drop.input);
      for (const st of plan) if (st.message && typeof (st.message as Record<string, Json>).method === 'string') methods.add((st.message as Record<string, Json>).method as string);
      blocks.push(p(`Plan for the ${drop.assumed ? 'assumed' : 'observed'} drop at ${drop.atMs} ms of `, link(run.scenario.id, run.href), ' (2026-07-28: a new request, no Last-Event-ID):'));
      blocks.push(list(plan.map((st) => [c(st.http), ' — ', st.note])));
      const first = plan.find((st) => st.message);
      if (first?.message) blocks.push(code(quote(first.message, redact)));
    }
  }
  blocks.push(p('Refetch methods: ', methods.size ? [...methods].sort().join(', ') : 'unknown — ask', '. Never repeat an unsafe mutation only because its response was lost.'));
  return blocks;
}

function tasksSection(inputs: ReviewInputs, runs: readonly ReplayedRun[], hrefOf: (lab: LabId, id: string, o?: Record<string, Json>) => string): Block[] {
  const t = inputs.tasks ?? {};
  const blocks: Block[] = [
    p('Tasks used: ', ask(t.used, t.used ? 'yes' : 'no'), '; cancelled with ', c(ask(t.cancelWith)), '; polls until terminal after the ack: ', ask(t.pollUntilTerminal, t.pollUntilTerminal ? 'yes' : 'NO'), '.'),
    p('A tasks/cancel ack is intent, not the end: the task stays working until the worker\'s checkpoint observes it — ', link('T1', hrefOf('resilience', 'T1-abort-before-task-id')), ', ', link('T3 (finishes before the checkpoint)', hrefOf('resilience', 'T3-finish-before-checkpoint')), '. Closing the HTTP connection never deletes a durable task.'),
  ];
  const taskRuns = runsOf(runs, 'resilience').filter((r) => (r.scenario.config as Record<string, Json>).mechanism === 'tasks');
  if (taskRuns.length) {
    blocks.push(
      table(
        ['run', 'tasks/cancel sent', 'ack', 'terminal status', 'statuses'],
        taskRuns.map((r) => {
          const q = (r.trace.outcome as TasksOutcome).requests[0];
          return [[link(r.scenario.id, r.href)], [q.cancelSentAtMs === null ? 'never' : `${q.cancelSentAtMs} ms`], [`${q.ack}${q.ackAtMs === null ? '' : ` at ${q.ackAtMs} ms`}`], [`${q.status ?? '—'}${q.statusAtMs === null ? '' : ` at ${q.statusAtMs} ms`}`], [q.statuses.join(' → ')]];
        }),
      ),
    );
  }
  return blocks;
}

function transcriptSection(t: Transcript, redact: boolean): Section {
  const rep = checkTranscript(t);
  const blocks: Block[] = [p(`${t.formatName}; ${t.messageIndices.length} messages, ${t.skipped.length} lines skipped; revision ${rep.revisionNote}. ${rep.findings.length} finding(s).`)];
  for (const f of rep.findings.slice(0, 50)) {
    blocks.push(p(b(`[${f.severity}] ${f.atMs} ms ${f.check}`), ` (${f.rule}): ${f.message} — `, link('the scenario that teaches it', f.teaches.href)));
    const first = f.entries.map((i) => t.entries[i]).find((e) => e?.type === 'message');
    if (first && first.type === 'message') blocks.push(code(quote(first.message, redact)));
  }
  if (rep.findings.length > 50) blocks.push(p(`… and ${rep.findings.length - 50} more.`));
  return { id: 'transcript', title: 'Imported transcript: findings', blocks };
}

/**
 * Builds the review: infers what the evidence shows, merges the user's inputs over it (theirs win),
 * fills every fixed section, evaluates the twelve fixtures and the verdict. Pure and deterministic
 * (replays the built-ins it needs for reference rows). Throws when `builtins` lacks a scenario the
 * report references (the error names it).
 */
export function buildReview(options: BuildReviewOptions): ReviewReport {
  const { builtins } = options;
  const runs = options.runs ?? [];
  const practice = options.practice ?? [];
  const redact = options.redact === true;
  const hrefOf = (lab: LabId, id: string, o?: Record<string, Json>) => shareHref(lab, builtinWith(builtins, lab, id, o), builtins);
  const inferred = inferInputs({ runs, practice, transcript: options.transcript });
  const inputs = mergeInputs(inferred.inputs, options.inputs);
  const askList = inferred.ask.filter((a) => {
    const [section, key] = a.field.split('.') as [keyof ReviewInputs, string];
    return (inputs[section] as Record<string, unknown> | undefined)?.[key] === undefined;
  });
  const races = raceRows(runs, builtins);
  const retry = retryRows(inputs, builtins);
  const fixtures = evaluateFixtures(runs, practice, builtins, hrefOf);
  const verdict = verdictOf(inputs, fixtures, hrefOf);
  const to = inputs.timeouts ?? {};
  const r = inputs.retry ?? {};
  const sse = inputs.sse ?? {};

  const sections: Section[] = [
    {
      id: 'inputs',
      title: 'Inputs',
      blocks: [
        table(
          ['input', 'value'],
          [
            [['transport'], [ask(inputs.transport?.kind), inputs.transport?.revision ? ` (${inputs.transport.revision})` : '']],
            [['operation semantics and side effects'], [(inputs.operation?.tools ?? []).map((t) => `${t.name}: ${t.sideEffect === undefined ? 'side effect unknown — ask' : t.sideEffect ? 'mutation' : 'read-only'}, key ${t.idempotencyKey ?? 'unknown — ask'}`).join('; ') || 'unknown — ask']],
            [['idle and maximum timeouts'], [`idle ${fmtMs(to.idleTimeoutMs)}, maximum ${fmtMs(to.maxTimeoutMs)}`]],
            [['progress token and rate limits'], [`token ${ask(inputs.progress?.token)}, ${fmtPerSecond(inputs.progress?.maxPerSecond)}${inputs.progress?.rateLimit ? `, ${inputs.progress.rateLimit}` : ''}`]],
            [['retry policy and idempotency storage'], [`policy ${ask(r.policy)}, ledger ${ask(r.ledger)}`]],
            [['SSE buffer, proxy, keep-alive, reconnect'], [`capacity ${ask(sse.queueCapacityEvents)}, proxy headers ${ask(sse.proxyHeaders)}, keep-alive ${fmtMs(sse.keepAliveIntervalMs)}, reconnect ${sse.reconnect ? 'set' : 'unknown — ask'}`]],
            [['task behaviour'], [ask(inputs.tasks?.used, inputs.tasks?.used ? `tasks, cancel with ${inputs.tasks.cancelWith ?? 'unknown — ask'}` : 'no tasks')]],
          ],
        ),
        ...(inferred.inferred.length ? [p('Inferred from the evidence:'), list(groupBySource(inferred.inferred))] : []),
        ...(askList.length ? [p(b('Unknown — ask:')), list(askList.map((a) => [c(a.field), `: ${a.question}`]))] : []),
      ],
    },
    { id: 'cancellation-wire', title: 'Cancellation wire per transport', blocks: cancellationWire(builtins, redact) },
    {
      id: 'race-table',
      title: 'Race table',
      blocks: [
        table(
          ['event order', 'server terminal state', 'final response', 'client behaviour'],
          races.map((row) => [[link(`${row.case} (${row.scenario}${row.fromRun ? '' : ', built-in'})`, row.href), `: ${row.eventOrder}`], [row.serverTerminalState], [row.finalResponse], [row.clientBehaviour]]),
        ),
      ],
    },
    {
      id: 'deadline-policy',
      title: 'Deadline policy',
      blocks: [
        p('Idle timeout: ', b(fmtMs(to.idleTimeoutMs)), '; maximum timeout: ', b(fmtMs(to.maxTimeoutMs)), '; enforced by: ', ask(to.enforcedBy), '; progress resets idle: ', ask(inputs.progress?.resetsIdle, inputs.progress?.resetsIdle ? 'yes' : 'no'), '.'),
        p('Progress may reset the idle clock, never the maximum; a progress token never means "no timeout"; a keep-alive comment is not progress — ', link('C: the maximum fires at 2000 ms', hrefOf('races', 'C-progress-idle-maximum')), ', ', link('the bug: progress resets the maximum', hrefOf('races', 'C-progress-idle-maximum', { policy: { progressResetsMaximum: true } })), ', ', link('P2: keep-alives are not progress', hrefOf('flow', 'P2-keepalive-not-progress')), '.'),
        ...(to.maxTimeoutMs === null ? [p(b('No maximum timeout:'), ' progress can keep hung work alive forever — ', link('F2', hrefOf('races', 'F2-progress-forever', { policy: { idleTimeoutOnly: true } })), '.')] : []),
      ],
    },
    {
      id: 'retry-classification',
      title: 'Retry classification',
      blocks: retry.length
        ? [table(['mutation', 'idempotency key', 'class', 'why', 'proof'], retry.map((row) => [[c(row.tool)], [row.idempotencyKey], [row.verdict], [row.why], [link('replay', row.href)]]))]
        : [p('No exposed tool known — ask which tools the operation exposes and which change state.')],
    },
    {
      id: 'atomic-boundary',
      title: 'Atomic boundary',
      blocks: [
        p('Ledger storage: ', b(ask(r.ledger)), '; external effect: ', b(ask(r.externalEffect)), '; replays return copies: ', ask(r.resultsAliasStorage, r.resultsAliasStorage ? 'NO — the stored object is returned' : 'yes'), '.'),
        p('Key claim, effect record and result commit as one unit — ', link('B naive: both execute', hrefOf('ledger', 'B-race-interleaved')), ', ', link('BEGIN IMMEDIATE: B replays', hrefOf('ledger', 'B-race-interleaved', { policy: 'immediate', busy: 'wait' })), '. A real payment or external API is not made atomic by a local table: it needs a shared transaction, a transactional outbox, or an upstream idempotency key.'),
        ...runsOf(runs, 'ledger').map((x) => p(link(x.scenario.id, x.href), `: policy ${String((x.scenario.config as Record<string, Json>).policy ?? '—')}, dedupe ${String((x.scenario.config as Record<string, Json>).dedupe ?? '—')}, executions ${String((x.trace.outcome as { summary: Record<string, Json> }).summary.executions)}${x.violated.length ? `, violates ${x.violated.join(', ')}` : ''}`)),
      ],
    },
    { id: 'flow-control', title: 'Flow control', blocks: flowSection(inputs, runs, builtins, hrefOf) },
    {
      id: 'proxy',
      title: 'Proxy SSE headers and idle policy',
      blocks: [
        code('Content-Type: text/event-stream\nCache-Control: no-cache\nX-Accel-Buffering: no', 'http'),
        p('Headers sent: ', b(ask(sse.proxyHeaders, sse.proxyHeaders ? 'yes' : 'NO')), '; proxy idle timeout: ', fmtMs(sse.proxyIdleTimeoutMs), '; keep-alive comment every ', fmtMs(sse.keepAliveIntervalMs), keepAliveNote(sse.keepAliveIntervalMs, sse.proxyIdleTimeoutMs), ' — ', link('P3: the header switches buffering off', hrefOf('flow', 'P3-accel-buffering-header')), ', ', link('P1: a buffering proxy starves the idle timeout', hrefOf('flow', 'P1-proxy-buffering')), '.'),
      ],
    },
    { id: 'reconnect', title: 'Reconnect plan', blocks: reconnectSection(inputs, runs, hrefOf, redact) },
    { id: 'tasks', title: 'Durable task cancellation', blocks: tasksSection(inputs, runs, hrefOf) },
    {
      id: 'fixtures',
      title: 'Required fixtures',
      blocks: [
        table(
          ['#', 'fixture', 'status', 'reproduced by', 'run'],
          fixtures.map((f) => [
            [String(f.n)],
            [f.title],
            [f.status],
            'practice' in f.reference ? [link(`ledger practice check ${f.reference.practice}`, f.reference.href)] : [link(`${f.reference.lab}/${f.reference.scenario} — "${f.reference.expectation}"`, f.reference.href)],
            f.runHref ? [link('run', f.runHref), ` ${f.detail}`] : [f.detail],
          ]),
        ),
      ],
    },
    ...(options.transcript ? [transcriptSection(options.transcript, redact)] : []),
    {
      id: 'verdict',
      title: 'Verdict',
      blocks: [
        p(b(verdict.status)),
        ...(verdict.refusals.length ? [p('Refused because:'), list(verdict.refusals.map((x) => [c(x.condition), `: ${x.text} — `, link('proof', x.href)]))] : []),
        ...(verdict.missing.length ? [p('Not yet known:'), list(verdict.missing.map((x) => [c(x.condition), `: ${x.text || 'unknown — ask'} — `, link('what it risks', x.href)]))] : []),
        ...(verdict.evidence.length ? [p('Evidence:'), list(verdict.evidence.map((x) => [`${x.text} — `, link('proof', x.href)]))] : []),
      ],
    },
  ];
  const title = `Reliability review${inputs.operation?.name ? `: ${inputs.operation.name}` : ''}`;
  const preamble: Block[] = [p(`Generated by MCP Reliability Lab from ${runs.length} lab run(s), ${practice.length} practice check(s)${options.transcript ? ' and an imported transcript' : ''}${redact ? '; arguments and results in quoted messages are hashed' : ''}. Every link replays the claim beside it${options.linkBase ? ` in the lab at ${options.linkBase.split('#')[0]}` : ''}.`)];
  return { inputs, inferred: inferred.inferred, ask: askList, raceRows: races, retryRows: retry, fixtures, verdict, document: { title, preamble, sections, ...(options.linkBase ? { linkBase: options.linkBase } : {}) } };
}

/** One list item per evidence source (a run's link, or the transcript): the fields it filled. */
function groupBySource(items: readonly InferredInput[]): Inline[][] {
  const groups = new Map<string, InferredInput[]>();
  for (const i of items) groups.set(`${i.source}\n${i.from}`, [...(groups.get(`${i.source}\n${i.from}`) ?? []), i]);
  return [...groups.values()].map((fields) => {
    const { from, source } = fields[0];
    const head: Inline = from === 'transcript' ? source : link(source, from);
    const parts: Inline[] = [head, ': '];
    fields.forEach((f, k) => parts.push(...(k ? [', '] : []), c(f.field), ` = ${JSON.stringify(f.value)}`));
    return parts;
  });
}

function keepAliveNote(keepAlive: number | null | undefined, proxyIdle: number | null | undefined): Inline {
  if (typeof keepAlive === 'number' && typeof proxyIdle === 'number') return keepAlive < proxyIdle ? ' (inside the proxy timeout)' : ' (NOT inside the proxy timeout: the proxy cuts quiet streams)';
  return '';
}

/** Re-exported for callers that hold scenarios rather than runs. */
export type { Scenario };
