import type { LabId } from '../sim/labIds';
import type { Expectation, Json } from '../sim/types';
import { runMismatches } from './replay';
import type { Builtins, FixtureRow, PracticeResult, ReplayedRun } from './types';

/**
 * The lesson's twelve required fixtures (issue 12 item 6; the lesson's "Capstone" artefacts and
 * "Verify the fact" list), each mapped to the built-in scenario and expectation that reproduces it.
 *
 * Status of a fixture, from the learner's evidence:
 * - `not run`: no run of its scenario (or the run does not exercise it: wrong transport or
 *   revision, the stream never dropped);
 * - `passed`: the run meets one of the fixture's accepted expectations — the lab's own checker on
 *   the run's own trace (requests, summary, states at times, violated invariants);
 * - `failed`: it meets none; the detail names the first mismatches.
 */
export interface FixtureDef {
  n: number;
  id: string;
  title: string;
  /** The scenario (built-in id) whose runs decide the fixture, or a ledger practice check. */
  source: { lab: LabId; scenario: string; expectation: string; accept?: string[]; assert?: Omit<Expectation, 'label' | 'overrides'> } | { practice: string };
  /** A run of the scenario that does not exercise the fixture (returns why), or null when it does. */
  notExercised?: (run: ReplayedRun) => string | null;
}

const cfg = (run: ReplayedRun) => run.scenario.config as Record<string, Json>;
const transportIs = (t: string) => (run: ReplayedRun) => (cfg(run).transport === t ? null : `the run is on ${String(cfg(run).transport)}, not ${t}`);
const revisionIs = (r: string) => (run: ReplayedRun) => (cfg(run).revision === r ? null : `the run is under ${String(cfg(run).revision)}, not ${r}`);

/** The twelve fixtures, in the lesson's order. */
export const FIXTURES: readonly FixtureDef[] = [
  { n: 1, id: 'stdio-cancel-before-completion', title: 'stdio cancel before completion', source: { lab: 'races', scenario: 'A-cancel-then-complete', expectation: 'cancel wins: no response' }, notExercised: transportIs('stdio') },
  { n: 2, id: 'stdio-completion-before-late-cancel', title: 'stdio completion before a late cancel', source: { lab: 'races', scenario: 'B-complete-then-cancel', expectation: 'the response stands, the late cancel is ignored' }, notExercised: transportIs('stdio') },
  {
    n: 3,
    id: 'http-stream-close-before-completion',
    title: 'HTTP stream closure before completion',
    source: { lab: 'races', scenario: 'D-http-stream-close', expectation: 'HTTP 2026-07-28: the stream close is the signal' },
    notExercised: (run) => transportIs('streamable-http')(run) ?? revisionIs('2026-07-28')(run),
  },
  { n: 4, id: 'progress-resets-idle-maximum-fires', title: 'progress resetting idle while the maximum still fires', source: { lab: 'races', scenario: 'C-progress-idle-maximum', expectation: 'maximum wins at 2000 ms' } },
  { n: 5, id: 'duplicate-mutation-two-ids-no-key', title: 'a duplicate mutation under two ids with no key', source: { lab: 'ledger', scenario: 'C-no-key-retries', expectation: 'three attempts, three charges' } },
  {
    n: 6,
    id: 'one-key-identical-arguments',
    title: 'one key with identical arguments',
    source: { lab: 'ledger', scenario: 'D-same-key', expectation: "one execution; replay carries request 1's id", assert: { requests: { '1': { reply: 'executed' }, '2': { reply: 'replayed', resultRequestId: 1 } }, summary: { executions: 1 } } },
  },
  {
    n: 7,
    id: 'key-reused-changed-arguments',
    title: 'a key reused with changed arguments',
    source: { lab: 'ledger', scenario: 'D-same-key', expectation: "one execution; replay carries request 1's id", assert: { requests: { '3': { reply: 'mismatch' } }, summary: { executions: 1 } } },
  },
  {
    n: 8,
    id: 'slow-consumer-overflows-progress-buffer',
    title: 'a slow consumer overflowing the progress buffer',
    source: { lab: 'flow', scenario: 'R1-coalesce-one-token', expectation: 'lesson policy: [last progress, final], 19 dropped', accept: ['drop-oldest: [19, 20, final], 18 dropped and marked'] },
  },
  {
    n: 9,
    id: 'stream-drop-new-subscription-refetch',
    title: 'a stream drop then a new subscription and refetch',
    source: { lab: 'flow', scenario: 'F1-stalled-subscriber', expectation: 'disconnect-at-capacity drops at 11240 ms; the client resyncs at 60000 ms', assert: { summary: { disconnects: 1, resyncs: 1, silentlyLost: 0, stream: 'open' }, violates: [] } },
    notExercised: (run) => ((run.trace.outcome as { summary: { disconnects: number } }).summary.disconnects > 0 ? null : 'the run\'s stream never dropped (set policy "disconnect")'),
  },
  {
    n: 10,
    id: 'tasks-cancel-ack-delayed-worker',
    title: 'a tasks/cancel ack then delayed worker cancellation',
    source: { lab: 'resilience', scenario: 'T1-abort-before-task-id', expectation: '2026-07-28: tasks/cancel at 120 ms, empty ack, working until the checkpoint at 2000 ms' },
    notExercised: revisionIs('2026-07-28'),
  },
  {
    n: 11,
    id: 'two-ledger-connections-one-key',
    title: 'two ledger connections racing on one key',
    source: {
      lab: 'ledger',
      scenario: 'B-race-interleaved',
      expectation: 'BEGIN IMMEDIATE (wait): B waits, then replays',
      accept: ['BEGIN IMMEDIATE (busy = error): B gets SQLITE_BUSY', "deferred BEGIN: B's read-then-write upgrade fails with SQLITE_BUSY", 'single-statement claim: B gets key in use'],
    },
  },
  { n: 12, id: 'caller-mutation-clean-replay', title: 'caller mutation of a returned result then a clean replay', source: { practice: 'result-immutable' } },
];

/** The fixture's reference expectations (the one named first, then the other accepted ones), resolved in the built-ins. Throws naming a label that is not in the file. */
export function fixtureExpectations(def: FixtureDef, builtins: Builtins): Expectation[] {
  if ('practice' in def.source) return [];
  const src = def.source;
  const scenario = builtins[src.lab].find((s) => s.id === src.scenario);
  if (!scenario) throw new Error(`fixture ${def.n}: no built-in ${src.lab} scenario "${src.scenario}"`);
  return [src.expectation, ...(src.accept ?? [])].map((label) => {
    const e = scenario.expect?.find((x) => x.label === label);
    if (!e) throw new Error(`fixture ${def.n}: ${src.scenario} has no expectation "${label}"`);
    return src.assert && label === src.expectation ? { label, ...src.assert } : e;
  });
}

/** The reference link of a fixture: the built-in with the expectation's overrides (`#/<lab>/<id>` plus what the lab's link carries). */
function referenceHref(def: FixtureDef, builtins: Builtins, hrefOf: (lab: LabId, id: string, overrides?: Record<string, Json>) => string): FixtureRow['reference'] {
  if ('practice' in def.source) return { practice: def.source.practice, href: '#/ledger' };
  const src = def.source;
  const e = builtins[src.lab].find((s) => s.id === src.scenario)?.expect?.find((x) => x.label === src.expectation);
  return { lab: src.lab, scenario: src.scenario, expectation: src.expectation, href: hrefOf(src.lab, src.scenario, e?.overrides as Record<string, Json> | undefined) };
}

const describeMismatch = (m: { field: string; expected: Json; actual: Json }) => `${m.field}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`;

/**
 * Each fixture's status from the replayed runs and practice results (the last run of the
 * fixture's scenario that exercises it decides). `hrefOf` builds a built-in's link with overrides.
 */
export function evaluateFixtures(
  runs: readonly ReplayedRun[],
  practice: readonly PracticeResult[],
  builtins: Builtins,
  hrefOf: (lab: LabId, id: string, overrides?: Record<string, Json>) => string,
): FixtureRow[] {
  return FIXTURES.map((def) => {
    const reference = referenceHref(def, builtins, hrefOf);
    const base = { n: def.n, id: def.id, title: def.title, reference };
    if ('practice' in def.source) {
      const id = def.source.practice;
      const p = [...practice].reverse().find((x) => x.check === id);
      if (!p) return { ...base, status: 'not run', detail: `practice check ${id} not run`, runHref: null };
      return { ...base, status: p.ok ? 'passed' : 'failed', detail: `practice check ${id} (${p.variant}): ${p.detail}`, runHref: p.href };
    }
    const src = def.source;
    const candidates = runs.filter((r) => r.lab === src.lab && r.scenario.id === src.scenario);
    if (candidates.length === 0) return { ...base, status: 'not run', detail: `no run of ${src.lab}/${src.scenario}`, runHref: null };
    const exercising = candidates.filter((r) => !def.notExercised || def.notExercised(r) === null);
    if (exercising.length === 0) {
      const last = candidates[candidates.length - 1];
      return { ...base, status: 'not run', detail: `the run does not exercise it: ${def.notExercised?.(last)}`, runHref: last.href };
    }
    const run = exercising[exercising.length - 1];
    const expectations = fixtureExpectations(def, builtins);
    const results = expectations.map((e) => ({ e, mismatches: runMismatches(run, e) }));
    const met = results.find((r) => r.mismatches.length === 0);
    if (met) return { ...base, status: 'passed', detail: `meets "${met.e.label}"`, runHref: run.href };
    const first = results[0].mismatches;
    return { ...base, status: 'failed', detail: `does not meet "${results[0].e.label}": ${first.slice(0, 3).map(describeMismatch).join('; ')}${first.length > 3 ? ` (+${first.length - 3} more)` : ''}`, runHref: run.href };
  });
}
