import type { LabId } from '../sim/labIds';
import type { Revision } from '../sim/mcp';
import type { Json, Scenario } from '../sim/types';
import type { classifyRetry } from '../sim/resilience';

/** SAFE / CONDITIONAL / UNSAFE, as the lab's classifier (src/sim/resilience) returns it. */
export type RetryVerdict = ReturnType<typeof classifyRetry>['verdict'];
import type { Transcript } from '../wire/transcript';

/**
 * The reliability reviewer's seven inputs (issue 12 item 6; the lesson's "skill-mcp-reliability-
 * reviewer": give it an MCP operation, its transport, timeout policy, retry behaviour, queue policy
 * and recovery plan). Every field is optional: what is missing is reported as "unknown — ask" with
 * the question to put to the operation's owner, and a missing field that decides a verdict
 * condition keeps the verdict from "production-ready".
 */
export interface ReviewInputs {
  /** 1. Transport(s) the operation is exposed on, and the protocol revision. */
  transport?: { kind?: 'stdio' | 'streamable-http' | 'both'; revision?: Revision };
  /** 2. The operation's semantics and side effects: one entry per exposed tool. */
  operation?: { name?: string; tools?: ToolInput[] };
  /** 3. Idle and maximum timeouts (ms; null = none set) and who enforces them. */
  timeouts?: { idleTimeoutMs?: number | null; maxTimeoutMs?: number | null; enforcedBy?: string };
  /** 4. Progress-token behaviour and rate limits. */
  progress?: {
    /** Whether requests carry a `progressToken` and whether the server emits progress for it. */
    token?: 'always' | 'sometimes' | 'never';
    /** Progress resets the idle timeout (never the maximum — the lesson's rule). */
    resetsIdle?: boolean;
    /** Most progress notifications per second per token the server emits (null: no limit). */
    maxPerSecond?: number | null;
    /** Rate limit on calls (free text, e.g. "20 calls/s per client, 429 with Retry-After"). */
    rateLimit?: string;
  };
  /** 5. Retry policy and idempotency storage. */
  retry?: {
    /** `timeout-only`: the client retries whenever it times out (the refused policy); `classified`: by SAFE/CONDITIONAL/UNSAFE; `none`. */
    policy?: 'none' | 'timeout-only' | 'classified';
    /** Where the idempotency ledger lives. `process-local` (in memory of one process) is refused. */
    ledger?: 'process-local' | 'shared-durable' | 'upstream' | 'none';
    /** Where the external effect sits relative to the atomic boundary (key claim + effect record + result). */
    externalEffect?: 'inside' | 'outbox' | 'upstream-key' | 'outside' | 'none';
    /** Whether a returned record is the stored object itself (true = aliases mutable storage: refused). */
    resultsAliasStorage?: boolean;
    /** Backoff between retries (free text, e.g. "full jitter, base 250 ms, cap 8000 ms"). */
    backoff?: string;
  };
  /** 6. SSE buffer, proxy, keep-alive and reconnect settings. */
  sse?: {
    /** Events the per-stream queue holds; null or missing = unspecified (refused). */
    queueCapacityEvents?: number | null;
    /** What the queue does at capacity. */
    queuePolicy?: 'lesson' | 'drop-oldest' | 'disconnect' | 'drop-silent' | 'unbounded';
    /** The server sends `X-Accel-Buffering: no` and `Cache-Control: no-cache` on SSE responses. */
    proxyHeaders?: boolean;
    /** Proxy read/idle timeout (ms). */
    proxyIdleTimeoutMs?: number | null;
    /** SSE comment interval (ms); null = none. */
    keepAliveIntervalMs?: number | null;
    /** Reconnect backoff. */
    reconnect?: { baseMs?: number; capMs?: number; jitter?: 'none' | 'full' | 'equal' | 'decorrelated' };
    /** Methods the client calls after a reconnect to refetch authoritative state. */
    refetchMethods?: string[];
  };
  /** 7. Task behaviour. */
  tasks?: {
    used?: boolean;
    /** How the client cancels a task. */
    cancelWith?: 'tasks/cancel' | 'notifications/cancelled';
    /** The client polls `tasks/get` until a terminal status after the ack. */
    pollUntilTerminal?: boolean;
  };
}

/** One exposed tool: does it change state, and does the caller send an idempotency key. */
export interface ToolInput {
  name: string;
  sideEffect?: boolean;
  /** `required`: every call carries a key, the server deduplicates by it; `none`: no key. */
  idempotencyKey?: 'required' | 'optional' | 'none';
}

/** One lab run the learner made: a scenario (built-in or edited) of a lab. Its config is the run's config. */
export interface LabRun {
  lab: LabId;
  scenario: Scenario;
}

/** A run of one of the ledger practice checks (`PRACTICE_CHECKS` of src/sim/ledger/practice.ts). */
export interface PracticeRun {
  check: string;
  variant?: string;
}

/** The evidence a review is made from: lab runs, practice checks and/or an imported transcript. */
export interface ReviewEvidence {
  runs?: LabRun[];
  practice?: PracticeRun[];
  transcript?: Transcript;
}

/** A run after replay: what the report reads. `outcome`/`invariants` are the lab's own. */
export interface ReplayedRun {
  lab: LabId;
  scenario: Scenario;
  /** The share link that reproduces the run (`#/<lab>/<id>` for an unmodified built-in). */
  href: string;
  /** The lab trace (races, ledger, flow or resilience). */
  trace: { outcome: unknown; invariants: { name: string; firstViolation: unknown }[]; steps: { at: number; entry: { kind: string; label: string; source: string }; effects: { message?: Json; http?: string; from: string; transport: string }[] }[] };
  /** Invariant names violated in the run. */
  violated: string[];
}

/** A practice check after running it. */
export interface PracticeResult {
  check: string;
  variant: string;
  ok: boolean;
  detail: string;
  href: string;
}

/** The built-in scenarios per lab, for links and reference runs. */
export type Builtins = Record<LabId, readonly Scenario[]>;

/** The status of one required fixture. */
export type FixtureStatus = 'passed' | 'failed' | 'not run';

/** One of the lesson's twelve required fixtures in a report. */
export interface FixtureRow {
  n: number;
  id: string;
  title: string;
  status: FixtureStatus;
  /** The built-in scenario (and its expectation label) that reproduces the fixture, and its link. */
  reference: { lab: LabId; scenario: string; expectation: string; href: string } | { practice: string; href: string };
  /** What the run showed (or why not run). */
  detail: string;
  /** Link of the learner's run that decided the status, when one did. */
  runHref: string | null;
}

/** One retry classification row. */
export interface RetryRow {
  tool: string;
  sideEffect: boolean | null;
  idempotencyKey: string;
  verdict: RetryVerdict | 'unknown — ask';
  why: string;
  href: string;
}

/** One refusal (or missing-input) reason of the verdict, with the link that proves it. */
export interface VerdictReason {
  condition: string;
  text: string;
  href: string;
}

/** The verdict. */
export interface Verdict {
  status: 'production-ready' | 'not production-ready' | 'incomplete';
  refusals: VerdictReason[];
  missing: VerdictReason[];
  /** The evidence links behind a production-ready verdict (or the passed evidence otherwise). */
  evidence: VerdictReason[];
}
