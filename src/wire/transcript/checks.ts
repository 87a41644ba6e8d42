import type { Json } from '../../sim/types';
import type { Revision } from '../../sim/mcp';
import type { Transcript, TranscriptEntry } from './types';
import { capabilityUndeclared, subscriptionUnrequested, taskCancelNotification } from './checks/capabilities';
import { cancelFinishedId, cancelUnknownId, httpCancelPost2026, lateAfterCancel, messageAfterStreamClose } from './checks/cancellation';
import { CallIndex, isObject, resolveOptions, type CheckContext, type CheckDefinition, type CheckId, type CheckModule, type CheckOptions, type Finding, type ResolvedCheckOptions, type Severity } from './checks/core';
import { duplicateCall } from './checks/duplicateCall';
import { progressAfterCompletion, progressNotIncreasing, progressUnknownToken } from './checks/progress';
import { reconnectLockstep, reconnectNoCap } from './checks/reconnect';
import { idempotencyKeyConflict, responseIdType, responseTwice, responseUnknownId } from './checks/responses';
import { schema } from './checks/schema';
import { contentLengthFraming, httpHeaderNotRejected, httpHeaders2026 } from './checks/transport';
import { outlivedMaximum, timeoutWithoutCancel } from './checks/timing';

export { canonicalJson, hasIdempotencyKey, type CheckDefinition, type CheckId, type CheckOptions, type Finding, type Severity, type Teaches } from './checks/core';

/**
 * The transcript checker: the observed messages themselves (never a re-simulation: a real
 * server's bug shows as it happened) against the named rules the labs teach. Each finding names
 * its check, the lab rule, the entries involved (indices into `Transcript.entries`, for selecting
 * them on the timeline), the request ids, and the built-in scenario that teaches the rule.
 *
 * One check is one module of `./checks/` (`{ def, create() → { visit?, finish? } }`); this file
 * lists them (`CHECK_MODULES`), builds the call index once in one pass over the entries, and hands
 * each check every entry with what the index resolved for it (see `./checks/core.ts`). To add a
 * check: write its module, add its id to `CheckId` and the module to `CHECK_MODULES`.
 *
 * Timing judgements ("well after a cancellation") allow `allowanceMs` (default 1000 ms) for the
 * latency between the two peers: a transcript recorded on one side sees the other side's
 * messages late, so a response 20 ms after a cancel is a race, not a bug.
 */

/** Every check, in catalogue order. */
export const CHECK_MODULES: readonly CheckModule[] = [
  lateAfterCancel,
  messageAfterStreamClose,
  progressAfterCompletion,
  progressNotIncreasing,
  progressUnknownToken,
  cancelUnknownId,
  cancelFinishedId,
  outlivedMaximum,
  timeoutWithoutCancel,
  duplicateCall,
  reconnectLockstep,
  reconnectNoCap,
  httpCancelPost2026,
  responseUnknownId,
  responseIdType,
  responseTwice,
  idempotencyKeyConflict,
  contentLengthFraming,
  httpHeaders2026,
  httpHeaderNotRejected,
  capabilityUndeclared,
  taskCancelNotification,
  subscriptionUnrequested,
  schema,
];

/** The catalogue of checks, keyed by id. */
export const CHECKS = Object.fromEntries(CHECK_MODULES.map((c) => [c.def.id, c.def])) as Record<CheckId, CheckDefinition>;

/** The checker's result. */
export interface CheckReport {
  revision: Revision;
  revisionNote: string;
  options: ResolvedCheckOptions;
  /** Sorted by time, then check id. */
  findings: Finding[];
  counts: Record<Severity, number>;
  /** True when no finding is an error or a warning (what `npm run check` exits 0 on). */
  clean: boolean;
  /** How many messages, calls (requests) and meta lines were checked. */
  checked: { messages: number; requests: number; meta: number };
}

/**
 * A checker fed one entry at a time, in time order (`push`), then closed (`finish`): what
 * `checkTranscript` runs over a whole transcript, and the streaming `check` over the lines of a
 * file as they are read. `entryAt(i)` is how findings find the time of an entry by index (the
 * streaming reader keeps only the entries findings may name).
 */
export class TranscriptChecker {
  private readonly findings: Finding[] = [];
  private readonly index = new CallIndex();
  private readonly running: ReturnType<CheckModule['create']>[];
  private readonly ctx: CheckContext;
  private messages = 0;
  private meta = 0;
  private lastAt = 0;
  private readonly times = new Map<number, number>();
  private readonly lines = new Map<number, number>();

  constructor(
    readonly revision: Revision,
    private readonly revisionNote: string,
    options: CheckOptions = {},
  ) {
    const opts = resolveOptions(options);
    this.running = CHECK_MODULES.map((c) => c.create());
    const times = this.times;
    const lines = this.lines;
    this.ctx = {
      revision,
      opts,
      index: this.index,
      endMs: 0,
      add: (check, message, entries, requestIds, severity, at) => {
        for (const e of entries) {
          times.set(e.index, e.atMs);
          lines.set(e.index, e.line);
        }
        const sorted = [...new Set(entries.map((e) => e.index))].sort((a, b) => a - b);
        const def = CHECKS[check];
        this.findings.push({ check, rule: def.rule, title: def.title, severity: severity ?? def.severity, message, entries: sorted, requestIds, atMs: at?.atMs ?? (sorted.length ? (times.get(sorted[0]) as number) : 0), teaches: def.teaches });
      },
    };
  }

  /** The file line of an entry a finding names (by its index). */
  lineOf(index: number): number | undefined {
    return this.lines.get(index);
  }

  /** Checks one entry (the next in time order). */
  push(e: TranscriptEntry): void {
    this.lastAt = e.atMs;
    if (e.type === 'meta') this.meta++;
    else if (e.type === 'message') this.messages++;
    const m = e.type === 'message' && isObject(e.message) ? (e.message as Record<string, Json>) : null;
    const o = this.index.resolve(e, m);
    if (o.kind === 'request') this.index.apply(e, o);
    for (const c of this.running) c.visit?.(e, m, o, this.ctx);
    if (o.kind !== 'request') this.index.apply(e, o);
  }

  /** Runs the finishing checks and returns the report (findings sorted by time, then first entry, then check id). */
  finish(): CheckReport {
    this.ctx.endMs = this.lastAt;
    for (const c of this.running) c.finish?.(this.ctx);
    const findings = this.findings;
    findings.sort((a, b) => a.atMs - b.atMs || (a.entries[0] ?? 0) - (b.entries[0] ?? 0) || a.check.localeCompare(b.check));
    const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
    for (const f of findings) counts[f.severity]++;
    return {
      revision: this.revision,
      revisionNote: this.revisionNote,
      options: this.ctx.opts,
      findings,
      counts,
      clean: counts.error === 0 && counts.warning === 0,
      checked: { messages: this.messages, requests: this.index.requests, meta: this.meta },
    };
  }
}

/**
 * Runs every check over `t` and returns the findings (sorted by time). Pure apart from the schema
 * validator's compile cache. The schema check uses `checkMessage` of `src/wire/schemaCheck.ts`
 * with `t.revision` and, for a response, the method of the request it answers.
 */
export function checkTranscript(t: Transcript, options: CheckOptions = {}): CheckReport {
  const checker = new TranscriptChecker(t.revision, t.revisionNote, options);
  for (const e of t.entries) checker.push(e);
  return checker.finish();
}
