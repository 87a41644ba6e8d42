/**
 * `mcp-lab serve --help`: its options, then every fault (from the fault vocabulary) and tool.
 * Pure data, imported by the CLI's command table, so it loads no SDK.
 */
import { LIVE_FAULT_NAMES, LIVE_FAULTS } from '../../sim/faultVocabulary';
import { FAULT_TOOL_NAMES } from './faultTools';

/** The `[flag, what it does]` rows of `serve --help`. */
export const SERVE_OPTIONS: ReadonlyArray<readonly [string, string]> = [
  ['(no flag)', 'stdio: reads JSON-RPC lines on stdin, writes them on stdout (logs go to stderr)'],
  ['--http HOST:PORT', 'Streamable HTTP at http://HOST:PORT/mcp (loopback only; port 0: any free port); Host and Origin are checked'],
  ['--unsafe-bind', 'allow a non-loopback --http address'],
  ['--fault NAME[,NAME…]', 'apply these faults to every tool call (slow_job included; in the conformance set, no-progress silences test_tool_with_progress); names below'],
  ['--chaos SEED', 'draw a fault per call from the chaos swarm\'s kinds, deterministic from SEED and the call order'],
  ['--scenario FILE', 'play a races lab scenario\'s server side (timings, bug switches → faults)'],
  ['--record FILE', 'write every frame to FILE (capture envelope v2 JSONL: mcp-lab check and the Traffic page read it)'],
  ['--tools lab|conformance|all', 'which tool set to serve (default lab)'],
  ['--keepalive-ms N', 'SSE keep-alive comment interval on HTTP response streams (default 15000; 0: none)'],
  ['--max-calls N', 'tool calls answered in the process\'s lifetime (default 10000)'],
  ['--max-concurrent N', 'tool calls running at once (default 64)'],
  ['--max-duration-ms N', 'longest a call may run (default 120000)'],
  ['--max-result-bytes N', 'largest result text (default 8388608)'],
  ['--max-request-bytes N', 'largest inbound line or body; longer ones are dropped with one stderr line (default 4194304)'],
  ...LIVE_FAULT_NAMES.map((name) => {
    const f = LIVE_FAULTS[name];
    const lesson = f.lesson ? `; scenario ${f.lesson.lab}/${f.lesson.scenario}` : '';
    return [`fault ${name}`, `${f.does} (tool ${FAULT_TOOL_NAMES[name]}; ${f.transports.join('+')}${lesson})`] as const;
  }),
  ['tool slow_job', '{ durationMs, progressEveryMs }: well behaved — progress only with a progressToken, stops at once on cancel, never answers a cancelled call'],
  ['tool charge', '{ idempotencyKey?, amountCents, workMs }: a charge on a real SQLite ledger (atomic claim of the key)'],
  ['tool confirm_transfer', '{ amountCents }: MRTR — InputRequiredResult with an elicitation (2026-07-28), elicitation/create (2025-11-25)'],
];
