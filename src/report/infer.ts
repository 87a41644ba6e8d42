import type { Json } from '../sim/types';
import type { Revision } from '../sim/mcp';
import { transcriptMessages, hasIdempotencyKey, type Transcript } from '../wire/transcript';
import { labContract } from '../sim/labs';
import type { PracticeResult, ReplayedRun, ReviewInputs } from './types';

/** One input filled from the evidence, with where it came from (a share link, or `transcript`). */
export interface InferredInput {
  field: string;
  value: Json;
  from: string;
  /**
   * The evidence named for a reader: `races/A-cancel-then-complete`, with ` (edited)` when the run
   * changed the built-in (its link then carries the scenario), `ledger practice check
   * result-immutable`, `the transcript`.
   */
  source: string;
}

/** The name of a run in the review: its lab and scenario id, ` (edited)` when it is not the built-in as shipped (its link carries the whole scenario or its changes). */
export function runSource(run: Pick<ReplayedRun, 'lab' | 'scenario' | 'href'>): string {
  const asShipped = run.href === `#/${run.lab}/${encodeURIComponent(run.scenario.id)}`;
  return `${run.lab}/${run.scenario.id}${asShipped ? '' : ' (edited)'}`;
}

/** One input the reviewer must ask for: the field and the question. */
export interface AskedInput {
  field: string;
  question: string;
}

/** The questions for every input the review reads, by field path (the seven inputs of the lesson's reviewer). */
export const QUESTIONS: Record<string, string> = {
  'transport.kind': 'Which transport(s) is the operation exposed on — stdio, Streamable HTTP, or both?',
  'transport.revision': 'Which MCP revision do client and server speak (2026-07-28 or 2025-11-25)?',
  'operation.tools': 'Which tools does the operation expose, which of them change state, and does each carry an idempotency key?',
  'timeouts.idleTimeoutMs': 'What is the idle timeout (ms without useful activity)?',
  'timeouts.maxTimeoutMs': 'What is the maximum timeout (absolute ms from the request start)?',
  'timeouts.enforcedBy': 'Who enforces the idle and maximum timeouts (client, server, gateway)?',
  'progress.token': 'Do requests carry a progressToken, and does the server emit progress for it?',
  'progress.resetsIdle': 'Does progress reset the idle timeout?',
  'progress.maxPerSecond': 'How many progress notifications per second per token may the server emit?',
  'retry.policy': 'What does the client retry, and when (on every timeout, or by SAFE/CONDITIONAL/UNSAFE class)?',
  'retry.ledger': 'Where is the idempotency ledger stored (process memory, a shared durable database, the upstream)?',
  'retry.externalEffect': 'Does the external effect commit inside the atomic boundary, through a transactional outbox, or with an upstream idempotency key?',
  'retry.resultsAliasStorage': 'Does a replay return a copy rebuilt from stored JSON, or the stored object itself?',
  'sse.queueCapacityEvents': 'How many events may the per-stream SSE queue hold?',
  'sse.queuePolicy': 'What does the queue do at capacity (coalesce progress, drop oldest, disconnect)?',
  'sse.proxyHeaders': 'Do SSE responses carry Cache-Control: no-cache and X-Accel-Buffering: no?',
  'sse.proxyIdleTimeoutMs': 'What is the proxy read/idle timeout (ms)?',
  'sse.keepAliveIntervalMs': 'How often does the server send an SSE comment keep-alive (ms)?',
  'sse.reconnect': 'What is the reconnect backoff (base, cap, jitter)?',
  'sse.refetchMethods': 'Which methods does the client call after a reconnect to refetch authoritative state?',
  'tasks.used': 'Does the operation use durable tasks?',
  'tasks.cancelWith': 'How does the client cancel a task (tasks/cancel)?',
  'tasks.pollUntilTerminal': 'After a tasks/cancel ack, does the client poll tasks/get until a terminal status?',
};

type Sections = Required<ReviewInputs>;

function set<K extends keyof Sections>(out: ReviewInputs, section: K, key: keyof NonNullable<Sections[K]>, value: unknown) {
  const s = ((out[section] as Record<string, unknown> | undefined) ?? {}) as Record<string, unknown>;
  if (s[key as string] === undefined) s[key as string] = value;
  (out as Record<string, unknown>)[section] = s;
}

const isObj = (v: unknown): v is Record<string, Json> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Fills what the evidence shows (the last run of each lab wins; the transcript fills what no run
 * does) and lists every input still unknown with its question. Lab-run inferences describe the run's
 * own model (e.g. a flow run's queue capacity); inputs the lab cannot know — where a real ledger
 * lives, whether a real effect is inside the boundary — are never inferred, only asked.
 */
export function inferInputs(evidence: { runs?: readonly ReplayedRun[]; practice?: readonly PracticeResult[]; transcript?: Transcript }): { inputs: ReviewInputs; inferred: InferredInput[]; ask: AskedInput[] } {
  const out: ReviewInputs = {};
  const inferred: InferredInput[] = [];
  let source = '';
  const note = <K extends keyof Sections>(section: K, key: keyof NonNullable<Sections[K]>, value: Json, from: string) => {
    const existing = (out[section] as Record<string, unknown> | undefined)?.[key as string];
    if (existing !== undefined) return;
    set(out, section, key, value);
    inferred.push({ field: `${section}.${String(key)}`, value, from, source: from === 'transcript' ? 'the transcript' : source });
  };
  const runs = [...(evidence.runs ?? [])].reverse();
  for (const run of runs) {
    source = runSource(run);
    labContract(run.lab).review?.infer(run.scenario, (field, value) => {
      const [section, key] = field.split('.') as [keyof Sections, string];
      note(section, key as never, value, run.href);
    });
  }
  for (const pr of [...(evidence.practice ?? [])].reverse()) {
    source = `ledger practice check ${pr.check}`;
    if (pr.check === 'result-immutable') note('retry', 'resultsAliasStorage', !pr.ok, pr.href);
  }
  const t = evidence.transcript;
  if (t) {
    const msgs = transcriptMessages(t);
    const transports = [...new Set(msgs.map((m) => m.transport).filter((x) => x !== 'unknown'))];
    if (transports.length === 1) note('transport', 'kind', transports[0], 'transcript');
    else if (transports.length > 1) note('transport', 'kind', 'both', 'transcript');
    if (t.revisionSource === 'initialize' || t.revisionSource === '_meta') note('transport', 'revision', t.revision as Revision, 'transcript');
    const calls = msgs.filter((m) => m.direction === 'c2s' && isObj(m.message) && m.message.method === 'tools/call' && isObj(m.message.params));
    if (calls.length > 0) {
      const byTool = new Map<string, { n: number; keyed: number }>();
      let withToken = 0;
      for (const m of calls) {
        const params = (m.message as Record<string, Json>).params as Record<string, Json>;
        const name = typeof params.name === 'string' ? params.name : '(unnamed)';
        const e = byTool.get(name) ?? { n: 0, keyed: 0 };
        e.n++;
        if (hasIdempotencyKey(params)) e.keyed++;
        byTool.set(name, e);
        if (isObj(params._meta) && params._meta.progressToken !== undefined) withToken++;
      }
      // Side effects cannot be read off the wire: sideEffect stays unknown (asked per tool).
      const tools = [...byTool.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([name, e]) => ({ name, idempotencyKey: e.keyed === e.n ? 'required' : e.keyed === 0 ? 'none' : 'optional' }));
      note('operation', 'tools', tools as unknown as Json, 'transcript');
      note('progress', 'token', withToken === calls.length ? 'always' : withToken === 0 ? 'never' : 'sometimes', 'transcript');
    }
    if (msgs.some((m) => isObj(m.message) && typeof m.message.method === 'string' && m.message.method.startsWith('tasks/'))) note('tasks', 'used', true, 'transcript');
  }
  return { inputs: out, inferred, ask: missingInputs(out) };
}

/** Deep-merges `given` over `inferred` per section (the user's answers win). */
export function mergeInputs(inferred: ReviewInputs, given: ReviewInputs | undefined): ReviewInputs {
  const out: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(inferred), ...Object.keys(given ?? {})])) {
    const a = (inferred as Record<string, unknown>)[key];
    const b = (given as Record<string, unknown> | undefined)?.[key];
    out[key] = isObj(a as Json) && isObj(b as Json) ? { ...(a as object), ...(b as object) } : (b ?? a);
  }
  return out as ReviewInputs;
}

/** Every input the review reads that is still unknown, with its question (tasks' details only when tasks are used). */
export function missingInputs(inputs: ReviewInputs): AskedInput[] {
  const out: AskedInput[] = [];
  for (const field of Object.keys(QUESTIONS)) {
    const [section, key] = field.split('.') as [keyof ReviewInputs, string];
    if (section === 'tasks' && key !== 'used' && inputs.tasks?.used !== true) continue;
    const value = (inputs[section] as Record<string, unknown> | undefined)?.[key];
    if (value === undefined) out.push({ field, question: QUESTIONS[field] });
  }
  return out;
}
