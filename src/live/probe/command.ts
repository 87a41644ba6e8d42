/**
 * `mcp-lab probe (--command "CMD ARGS…" | --url http://HOST:PORT/mcp) [--tool NAME] [--args JSON]
 * [--revision 2026-07-28|2025-11-25] [--json] [--checks-json FILE] [--record FILE] [--timeout-ms N] [--window-ms N]`
 *
 * Tests a user's MCP server with a real SDK v2 client (issue 22): the safe probes on any server
 * (handshake, a cancel for an unknown id, malformed cancels, a ping notification), and with `--tool`
 * the cancel probes on a long-running tool (messages after the cancel, progress monotonic, a second
 * call answered, five rapid cycles, an idempotency key twice). Findings in `check`'s shape.
 *
 * Exit codes: 0 every probe passed, was not observed or not applicable; 3 a rule broken (a fail of
 * severity error or warning); 1 could not connect or bad input (one line on stderr). Every wait is bounded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REVISIONS, type Revision } from '../../sim/mcp';
import { NO_RECORDER, openRecorder, type Recorder } from '../recorder';
import { finding, isBroken, PROBE_IDS, toConformanceChecks, type ProbeFinding, type ProbeId } from './findings';
import {
  PROBE_DEFAULTS,
  probeCancelledCall,
  probeHandshake,
  probeIdempotency,
  probeMalformedCancels,
  probeOneResponse,
  probeProgressStops,
  probePingNotification,
  probeRapidCycles,
  probeSurvives,
  probeUnknownCancel,
  progressFinding,
  type CancelledCallResult,
  type ProbeOptions,
  type SecondCallResult,
} from './probes';
import { describeTarget, openSession, type ProbeTarget } from './session';

/** A parsed command line. */
export interface ProbeArgs {
  target: ProbeTarget;
  revision: Revision | null;
  tool: string | null;
  args: Record<string, unknown>;
  json: boolean;
  checksJson: string | null;
  record: string | null;
  timeoutMs: number;
  /**
   * The shortest time (ms) the probe listens after a cancel for anything late (default 2000; the
   * window is also at least 3× the observed progress interval). Raise it to match a tool that can go
   * silent for longer before answering anyway.
   */
  windowMs?: number;
}

/** The probe's result document (`--json`). */
export interface ProbeReport {
  target: string;
  transport: 'stdio' | 'http';
  revision: string;
  tool: string | null;
  counts: { pass: number; fail: number; 'not-observed': number; 'not-applicable': number };
  /** True when no rule broke (what exit 0 means). */
  clean: boolean;
  findings: ProbeFinding[];
}

/**
 * Splits a command string into words: spaces separate, single or double quotes group, a backslash
 * escapes the next character. No shell is involved.
 * @throws Error on an unclosed quote.
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let has = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      word += text[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || word) words.push(word);
      word = '';
      has = false;
    } else word += ch;
  }
  if (quote) throw new Error(`--command: unclosed ${quote} quote`);
  if (has || word) words.push(word);
  return words;
}

/**
 * Parses the probe's argv.
 * @throws Error with one line naming the bad option.
 */
export function parseProbeArgs(argv: readonly string[]): ProbeArgs {
  let command: string | null = null;
  let url: string | null = null;
  const out: Omit<ProbeArgs, 'target'> = { revision: null, tool: null, args: {}, json: false, checksJson: null, record: null, timeoutMs: 10000, windowMs: PROBE_DEFAULTS.minWindowMs };
  const value = (i: number, flag: string) => {
    const v = argv[i];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag}: missing its value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--command') command = value(++i, a);
    else if (a === '--url') url = value(++i, a);
    else if (a === '--tool') out.tool = value(++i, a);
    else if (a === '--args') {
      const text = value(++i, a);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw new Error(`--args: not JSON (${(err as Error).message})`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('--args: must be a JSON object, e.g. \'{"duration":5}\'');
      out.args = parsed as Record<string, unknown>;
    } else if (a === '--revision') {
      const v = value(++i, a);
      if (!(REVISIONS as readonly string[]).includes(v)) throw new Error(`--revision: must be one of ${REVISIONS.join(', ')}, got ${JSON.stringify(v)}`);
      out.revision = v as Revision;
    } else if (a === '--json') out.json = true;
    else if (a === '--checks-json') out.checksJson = value(++i, a);
    else if (a === '--record') out.record = value(++i, a);
    else if (a === '--timeout-ms') {
      const v = value(++i, a);
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`--timeout-ms: must be a whole number of milliseconds ≥ 1, got ${JSON.stringify(v)}`);
      out.timeoutMs = Number(v);
    } else if (a === '--window-ms') {
      const v = value(++i, a);
      if (!/^\d+$/.test(v) || Number(v) < 100 || Number(v) > 600000) throw new Error(`--window-ms: must be a whole number of milliseconds from 100 to 600000, got ${JSON.stringify(v)}`);
      out.windowMs = Number(v);
    } else throw new Error(`unknown option ${JSON.stringify(a)}`);
  }
  if ((command === null) === (url === null)) throw new Error('give exactly one of --command "CMD ARGS…" or --url http://HOST:PORT/mcp');
  let target: ProbeTarget;
  if (command !== null) {
    const words = splitCommand(command);
    if (words.length === 0) throw new Error('--command: empty');
    target = { kind: 'stdio', command: words[0], args: words.slice(1) };
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url as string);
    } catch {
      throw new Error(`--url: not a URL: ${JSON.stringify(url)}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--url: must be http:// or https://, got ${parsed.protocol}`);
    target = { kind: 'http', url: parsed.href };
  }
  return { target, ...out };
}

/**
 * Runs every probe on `args.target` and returns the report.
 * @throws Error (one line) when the server cannot be reached or the handshake fails.
 */
/**
 * Bad input, not a broken rule: a `--tool` the server does not list stops the probe with one line
 * naming the tools it has (exit 1). A server whose `tools/list` fails is probed as asked.
 * @throws Error naming the missing tool and up to ten the server lists.
 */
async function requireTool(session: Awaited<ReturnType<typeof openSession>>, tool: string): Promise<void> {
  const names: string[] = [];
  try {
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await session.client.listTools(cursor === undefined ? undefined : { cursor });
      names.push(...r.tools.map((t) => t.name));
      cursor = r.nextCursor;
      if (cursor === undefined) break;
    }
  } catch {
    return;
  }
  if (!names.includes(tool)) throw new Error(`the server has no tool ${JSON.stringify(tool)} (--tool) — it lists ${names.length === 0 ? 'none' : names.slice(0, 10).join(', ') + (names.length > 10 ? ', …' : '')}`);
}

export async function runProbe(args: ProbeArgs, recorder: Recorder = NO_RECORDER): Promise<ProbeReport> {
  const session = await openSession(args.target, { revision: args.revision, recorder, connectTimeoutMs: args.timeoutMs });
  const o: ProbeOptions = { ...PROBE_DEFAULTS, minWindowMs: args.windowMs ?? PROBE_DEFAULTS.minWindowMs, requestTimeoutMs: Math.max(args.timeoutMs, PROBE_DEFAULTS.requestTimeoutMs), tool: args.tool, args: args.args };
  const findings: ProbeFinding[] = [];
  /** Runs one probe; once the server is gone (or a probe throws), the rest are "not observed" with the reason. */
  const run = async (ids: ProbeId[], probe: () => ProbeFinding | ProbeFinding[] | Promise<ProbeFinding | ProbeFinding[]>) => {
    if (session.closedReason !== null) {
      for (const id of ids) findings.push(finding(id, 'not-observed', 'warning', '—', `not run: the server had gone (${session.closedReason})`, []));
      return;
    }
    try {
      const r = await probe();
      findings.push(...(Array.isArray(r) ? r : [r]));
    } catch (err) {
      for (const id of ids) findings.push(finding(id, 'not-observed', 'warning', '—', `the probe could not run: ${(err as Error).message}`, []));
    }
  };
  try {
    await run(['handshake'], () => probeHandshake(session, args.revision));
    if (args.tool !== null && session.closedReason === null) await requireTool(session, args.tool);
    await run(['cancel-unknown-id'], () => probeUnknownCancel(session, o));
    await run(['malformed-cancels'], () => probeMalformedCancels(session, o));
    await run(['ping-notification'], () => probePingNotification(session, o));
    if (args.tool !== null) {
      const tool = args.tool;
      let cancelled: CancelledCallResult | null = null;
      await run(['cancel-stops-work'], async () => {
        cancelled = await probeCancelledCall(session, o, tool);
        return cancelled.finding;
      });
      let second: SecondCallResult | null = null;
      // A server that is gone right after the probe's cancel did not survive it: that is this probe's
      // failure, not "not observed" (mcp-lab serve --fault crash-on-cancel exits on the cancel of a call in flight).
      if (cancelled !== null && session.closedReason !== null) {
        findings.push(finding('survives-cancel', 'fail', 'warning', 'SHOULD (a cancel only stops the one request)', `the server was gone right after the cancel: ${session.closedReason}`, session.log.slice(-6)));
      } else await run(['survives-cancel'], async () => {
        second = await probeSurvives(session, o, tool);
        return second.finding;
      });
      if (!cancelled && !second) findings.push(finding('progress-monotonic', 'not-observed', 'error', 'MUST increase with each notification', `not run: ${session.closedReason ?? 'no call ran'}`, []));
      else findings.push(progressFinding([(cancelled as CancelledCallResult | null)?.progress ?? null, (second as SecondCallResult | null)?.progress ?? null]));
      await run(['rapid-cancel-cycles'], () => probeRapidCycles(session, o, tool));
      await run(['idempotency-once'], () => probeIdempotency(session, o, tool));
    } else {
      for (const id of ['cancel-stops-work', 'progress-monotonic', 'survives-cancel', 'rapid-cancel-cycles', 'idempotency-once'] as const) {
        findings.push(finding(id, 'not-applicable', 'warning', '—', 'needs --tool NAME (a long-running tool) and its --args', []));
      }
    }
    findings.push(probeOneResponse(session));
    if (args.tool !== null) findings.push(probeProgressStops(session, o.inFlightMs));
    else findings.push(finding('progress-stops-at-result', 'not-applicable', 'error', '—', 'needs --tool NAME (a tool that reports progress)', []));
  } finally {
    await session.close();
  }
  const counts = { pass: 0, fail: 0, 'not-observed': 0, 'not-applicable': 0 };
  for (const f of findings) counts[f.verdict]++;
  findings.sort((a, b) => PROBE_IDS.indexOf(a.check) - PROBE_IDS.indexOf(b.check));
  return { target: describeTarget(args.target), transport: session.transport, revision: session.revision, tool: args.tool, counts, clean: !findings.some(isBroken), findings };
}

const LABEL = { pass: 'PASS', fail: 'FAIL', 'not-observed': 'NOT OBSERVED', 'not-applicable': 'N/A' } as const;

/** The human summary: one line per probe, the evidence of each fail (at most 6 messages), then the counts. */
export function probeSummary(r: ProbeReport): string {
  const lines = [`mcp-lab probe ${r.target} over ${r.transport}, revision ${r.revision}${r.tool ? `, tool ${r.tool}` : ' (no --tool: safe probes only)'}`];
  for (const f of r.findings) {
    lines.push(`  ${LABEL[f.verdict].padEnd(12)} ${f.check}${f.verdict === 'fail' ? ` [${f.severity}]` : ''} — ${f.message}`);
    if (f.verdict === 'fail') {
      lines.push(`               rule ${f.rule} (${f.specWord})${f.teaches ? `; the lab teaches it: ${f.teaches.lab} ${f.teaches.scenario} (${f.teaches.href})` : ''}`);
      const shown = f.evidence.filter((x) => x.direction !== 'meta');
      const late = shown.filter((x) => x.afterCancelMs !== undefined && x.afterCancelMs > 0);
      for (const e of late.length ? late.slice(0, 6) : shown.slice(-6)) {
        const text = e.message ? JSON.stringify(e.message) : (e.text ?? '');
        lines.push(`               ${String(e.atMs).padStart(8)} ms ${e.direction}${e.afterCancelMs !== undefined ? ` (+${e.afterCancelMs} ms after the cancel)` : ''} ${text.length > 160 ? `${text.slice(0, 157)}…` : text}`);
      }
    }
  }
  const unseen = r.counts['not-observed'];
  // "No rule broken" claims only what was seen: a rule the client could not observe is said to be unchecked.
  const verdict = !r.clean ? 'a rule is broken (exit 3)' : unseen > 0 ? `no rule seen broken; ${unseen === 1 ? '1 rule' : `${unseen} rules`} could not be checked from the client (see NOT OBSERVED above)` : 'no rule broken';
  lines.push(`${r.counts.pass} pass, ${r.counts.fail} fail, ${unseen} not observed, ${r.counts['not-applicable']} not applicable — ${verdict}`);
  return `${lines.join('\n')}\n`;
}

/** The `probe` command: parses argv, runs, prints (stdout: the summary or `--json`), exits 0 / 3 / 1, or 2 for a bad command line. */
export async function probeCommand(argv: string[]): Promise<number> {
  let args: ProbeArgs;
  try {
    args = parseProbeArgs(argv);
  } catch (err) {
    // A bad command line exits 2, as serve, check, chaos and explore do; 1 stays "cannot connect".
    process.stderr.write(`probe: ${(err as Error).message}\n`);
    return 2;
  }
  let recorder: Recorder = NO_RECORDER;
  try {
    if (args.record) recorder = openRecorder(args.record);
  } catch (err) {
    process.stderr.write(`probe: ${(err as Error).message}\n`);
    return 1;
  }
  let report: ProbeReport;
  try {
    report = await runProbe(args, recorder);
  } catch (err) {
    process.stderr.write(`probe: ${(err as Error).message.split('\n')[0]}\n`);
    return 1;
  } finally {
    recorder.close();
  }
  if (args.checksJson) {
    try {
      mkdirSync(path.dirname(path.resolve(args.checksJson)), { recursive: true });
      writeFileSync(args.checksJson, `${JSON.stringify(toConformanceChecks(report.findings, report.revision, new Date().toISOString()), null, 2)}\n`);
    } catch (err) {
      process.stderr.write(`probe: cannot write ${args.checksJson}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      return 1;
    }
  }
  process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : probeSummary(report));
  return report.clean ? 0 : 3;
}
