/**
 * The probe's findings: the shape of `check`'s findings (`src/wire/transcript/checks.ts`: check,
 * rule, title, severity, message, entries, requestIds, atMs, teaches) plus the verdict and the
 * evidence (the messages with their times), and the conformance suite's `checks.json` view of them.
 * Pure: no clock, no I/O.
 */
import { CHECKS, type Severity, type Teaches } from '../../wire/transcript/checks';
import type { WireEvent } from './session';

/** pass: positive evidence the rule held; fail: the rule broke; not-observed: the server gave nothing to judge; not-applicable: the probe does not apply (no `--tool`, no idempotency key). */
export type Verdict = 'pass' | 'fail' | 'not-observed' | 'not-applicable';

/** Every probe, in the order they run. */
export const PROBE_IDS = [
  'handshake',
  'cancel-unknown-id',
  'malformed-cancels',
  'ping-notification',
  'cancel-stops-work',
  'progress-monotonic',
  'survives-cancel',
  'rapid-cancel-cycles',
  'idempotency-once',
  'one-response-per-request',
  'progress-stops-at-result',
] as const;

/** A probe's id. */
export type ProbeId = (typeof PROBE_IDS)[number];

/** One message (or meta line) a finding rests on: its time (ms since the session opened) and the frame. */
export interface Evidence {
  atMs: number;
  direction: WireEvent['direction'];
  /** The JSON-RPC frame, or the meta text. */
  message?: Record<string, unknown>;
  text?: string;
  /** For messages after a cancel: how long after it (ms). */
  afterCancelMs?: number;
}

/** One probe's finding, in `check`'s shape plus `verdict`, `evidence` and `specWord`. */
export interface ProbeFinding {
  check: ProbeId;
  rule: string;
  title: string;
  /** error: a MUST; warning: a SHOULD (or the lab's own rule); info: worth knowing. Meaningful on a fail. */
  severity: Severity;
  /** The spec's word the severity comes from ("MUST", "MUST NOT", "SHOULD", or "lab rule"). */
  specWord: string;
  verdict: Verdict;
  message: string;
  /** Indices into the session log (`ProbeSession.log`). */
  entries: number[];
  requestIds: (string | number)[];
  atMs: number;
  evidence: Evidence[];
  /** The built-in scenario that teaches the rule (null: none does; the handshake). */
  teaches: Teaches | null;
}

/** Where each probe's rule is written, and the built-in scenario that teaches it. */
export const PROBE_RULES: Record<ProbeId, { rule: string; title: string; teaches: Teaches | null }> = {
  handshake: { rule: 'lifecycle.version', title: 'The handshake negotiates the asked revision', teaches: null },
  'cancel-unknown-id': { rule: CHECKS['cancel-unknown-id'].rule, title: 'A cancel for an id the server never saw is ignored', teaches: CHECKS['cancel-unknown-id'].teaches },
  'malformed-cancels': { rule: CHECKS['cancel-unknown-id'].rule, title: 'Malformed cancels are ignored and the server stays up', teaches: { lab: 'races', scenario: 'E2-malformed-cancel', href: '#/races/E2-malformed-cancel' } },
  'ping-notification': { rule: 'jsonrpc.no-reply-to-notification', title: 'A notification (a ping without an id) gets no response', teaches: CHECKS['cancel-unknown-id'].teaches },
  'cancel-stops-work': { rule: CHECKS['late-after-cancel'].rule, title: 'Nothing for a cancelled request after the cancel', teaches: CHECKS['late-after-cancel'].teaches },
  'progress-monotonic': { rule: CHECKS['progress-not-increasing'].rule, title: "Progress strictly increases and carries the call's token", teaches: CHECKS['progress-not-increasing'].teaches },
  'survives-cancel': { rule: 'cancel.ignore-invalid', title: 'A second call after the cancel is answered', teaches: { lab: 'races', scenario: 'I6-cancel-in-write-window', href: '#/races/I6-cancel-in-write-window?server.crashOnCancelInWriteWindow=true' } },
  'rapid-cancel-cycles': { rule: CHECKS['late-after-cancel'].rule, title: 'Five rapid call-and-cancel cycles: no late answer, the server stays up', teaches: CHECKS['late-after-cancel'].teaches },
  'idempotency-once': { rule: CHECKS['duplicate-call'].rule, title: 'The same call twice under one idempotency key runs once', teaches: CHECKS['duplicate-call'].teaches },
  'progress-stops-at-result': { rule: CHECKS['progress-after-completion'].rule, title: 'No progress after the request completed', teaches: CHECKS['progress-after-completion'].teaches },
  'one-response-per-request': { rule: 'jsonrpc.one-response', title: 'Each request is answered once', teaches: { lab: 'races', scenario: 'I6-cancel-in-write-window', href: '#/races/I6-cancel-in-write-window?server.duplicateResponseOnCancel=true' } },
};

/** Builds a finding from the probe's table entry. `events`: the log entries it rests on (become `entries` and `evidence`). */
export function finding(
  check: ProbeId,
  verdict: Verdict,
  severity: Severity,
  specWord: string,
  message: string,
  events: WireEvent[],
  requestIds: (string | number)[] = [],
  cancelAtMs?: number,
): ProbeFinding {
  const def = PROBE_RULES[check];
  const sorted = [...new Map(events.map((e) => [e.index, e])).values()].sort((a, b) => a.index - b.index);
  return {
    check,
    rule: def.rule,
    title: def.title,
    severity,
    specWord,
    verdict,
    message,
    entries: sorted.map((e) => e.index),
    requestIds,
    atMs: sorted[0]?.atMs ?? 0,
    evidence: sorted.map((e) => ({
      atMs: e.atMs,
      direction: e.direction,
      ...(e.message ? { message: e.message } : {}),
      ...(e.text !== undefined ? { text: e.text } : {}),
      ...(cancelAtMs !== undefined && e.atMs >= cancelAtMs && e.direction === 's2c' ? { afterCancelMs: Math.round((e.atMs - cancelAtMs) * 10) / 10 } : {}),
    })),
    teaches: def.teaches,
  };
}

/** True when a finding breaks a rule the exit code counts (a fail of severity error or warning). */
export function isBroken(f: ProbeFinding): boolean {
  return f.verdict === 'fail' && f.severity !== 'info';
}

/** One check of the official conformance suite's `checks.json` (`@modelcontextprotocol/conformance`: an array of these). */
export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  timestamp: string;
  errorMessage?: string;
  specReferences?: { id: string; url: string }[];
  details?: Record<string, unknown>;
}

/** The spec page of each probe's rule, per revision (for `specReferences`). */
function specUrl(check: ProbeId, revision: string): string {
  const rev = revision === '2026-07-28' ? '2026-07-28' : '2025-11-25';
  const base = `https://modelcontextprotocol.io/specification/${rev}/basic`;
  if (check === 'progress-monotonic' || check === 'progress-stops-at-result') return rev === '2026-07-28' ? `${base}/patterns/progress` : `${base}/utilities/progress`;
  if (check === 'handshake') return `${base}/lifecycle`;
  if (check === 'ping-notification' || check === 'one-response-per-request') return 'https://www.jsonrpc.org/specification';
  if (check === 'idempotency-once') return `https://modelcontextprotocol.io/specification/${rev}/server/tools`;
  return rev === '2026-07-28' ? `${base}/patterns/cancellation` : `${base}/utilities/cancellation`;
}

/**
 * The findings as the conformance suite's `checks.json`: pass → SUCCESS, a broken MUST → FAILURE,
 * a broken SHOULD → WARNING, not observed → INFO, not applicable → SKIPPED. Ids are prefixed
 * `mcp-lab-probe-` so they never collide with the suite's.
 */
export function toConformanceChecks(findings: readonly ProbeFinding[], revision: string, timestamp: string): ConformanceCheck[] {
  return findings.map((f) => {
    const status: ConformanceCheck['status'] =
      f.verdict === 'pass' ? 'SUCCESS' : f.verdict === 'fail' ? (f.severity === 'error' ? 'FAILURE' : f.severity === 'warning' ? 'WARNING' : 'INFO') : f.verdict === 'not-observed' ? 'INFO' : 'SKIPPED';
    return {
      id: `mcp-lab-probe-${f.check}`,
      name: f.title,
      description: `${f.message} (rule ${f.rule}, ${f.specWord}; ${f.teaches ? `taught by ${f.teaches.lab} ${f.teaches.scenario}` : 'no built-in scenario'})`,
      status,
      timestamp,
      ...(f.verdict === 'fail' ? { errorMessage: f.message } : {}),
      specReferences: [{ id: `MCP-${f.rule}`, url: specUrl(f.check, revision) }],
      details: { verdict: f.verdict, severity: f.severity, requestIds: f.requestIds, evidence: f.evidence.slice(0, 20) },
    };
  });
}
