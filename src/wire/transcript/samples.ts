import type { Json, Scenario } from '../../sim/types';
import { replayRaces, withOverrides } from '../../sim/races';
import { exportTranscript, racesWireRecords } from './export';
import type { TranscriptFormat, WireRecord } from './types';
import type { CheckId } from './checks';

/**
 * The sample transcripts under `public/transcripts/`, generated from the races lab's built-in
 * scenarios (`npm run transcripts` writes them; a test checks the files are fresh). Each sample
 * names its source scenario, the overrides it ran with, any edit to the scenario, and the checks
 * it must trip (an empty list: it must check clean). Pure: the caller loads the scenarios.
 */

/** One sample file. */
export interface TranscriptSample {
  /** Path under `public/transcripts/`. */
  file: string;
  format: TranscriptFormat;
  /** Where it comes from. */
  source: { lab: 'races'; scenario: string; overrides?: Record<string, Json>; edit?: string; extra?: string };
  /** The check ids the sample trips (sorted, unique); empty: clean. */
  expectChecks: CheckId[];
  /** Options the check runs with for `expectChecks` (defaults otherwise). */
  checkOptions?: { allowanceMs?: number; maxMs?: number };
  text: string;
}

interface Spec {
  file: string;
  format: TranscriptFormat;
  scenario: string;
  overrides?: Record<string, Json>;
  edit?: { text: string; apply: (s: Scenario) => Scenario };
  extra?: { text: string; records: (records: WireRecord[]) => WireRecord[] };
  expectChecks: CheckId[];
  checkOptions?: { allowanceMs?: number; maxMs?: number };
}

const moveEvent = (id: string, at: number) => (s: Scenario): Scenario => ({ ...s, events: s.events.map((e) => (e.id === id ? { ...e, at } : e)) });

const SPECS: Spec[] = [
  {
    file: 'claude-desktop/mcp-server-lab-late-result.log',
    format: 'claude-desktop-log',
    scenario: 'F3-late-result',
    overrides: { policy: { timeoutWithoutCancel: true } },
    extra: {
      text: 'a start-up line and three lines of the server\'s stderr interleaved',
      records: (r) => [
        { type: 'meta', atMs: 0, kind: 'connect', transport: 'stdio', text: 'Server started and connected successfully' },
        { type: 'stderr', atMs: 0, text: 'lab-server: listening on stdio' },
        ...r.slice(0, 1),
        { type: 'stderr', atMs: 1, text: 'lab-server: job 42 started (cannot be interrupted)' },
        ...r.slice(1),
        { type: 'stderr', atMs: 74049, text: 'lab-server: job 42 finished after 74049 ms' },
      ],
    },
    expectChecks: ['timeout-without-cancel'],
  },
  { file: 'claude-desktop/mcp-server-lab-complete-then-cancel.log', format: 'claude-desktop-log', scenario: 'B-complete-then-cancel', expectChecks: [] },
  {
    file: 'inspector-v2/inspector-responds-after-cancel.json',
    format: 'inspector-v2',
    scenario: 'A-cancel-then-complete',
    overrides: { policy: { respondAfterCancel: true } },
    edit: { text: 'the completion moved from 500 ms to 3000 ms (well past the 1000 ms allowance)', apply: moveEvent('complete', 3000) },
    expectChecks: ['late-after-cancel'],
  },
  { file: 'inspector-v2/inspector-user-cancel.json', format: 'inspector-v2', scenario: 'F4-user-cancel-no-timeout', expectChecks: [] },
  { file: 'inspector-v2/inspector-invalid-cancels.json', format: 'inspector-v2', scenario: 'E-invalid-cancels', expectChecks: ['cancel-unknown-id', 'schema'] },
  { file: 'jsonrpc-jsonl/jsonrpc-fifty-timeouts-no-cancel.jsonl', format: 'jsonrpc-jsonl', scenario: 'F5-fifty-timeouts', overrides: { policy: { timeoutWithoutCancel: true } }, expectChecks: ['duplicate-call', 'timeout-without-cancel'] },
  { file: 'jsonrpc-jsonl/jsonrpc-progress-idle-maximum.jsonl', format: 'jsonrpc-jsonl', scenario: 'C-progress-idle-maximum', expectChecks: [] },
  {
    file: 'jsonrpc-jsonl/jsonrpc-progress-forever.jsonl',
    format: 'jsonrpc-jsonl',
    scenario: 'F2-progress-forever',
    overrides: { policy: { idleTimeoutOnly: true } },
    expectChecks: ['outlived-maximum'],
    checkOptions: { maxMs: 180000 },
  },
  { file: 'capture-jsonl/capture-http-stream-close.jsonl', format: 'capture-jsonl', scenario: 'D-http-stream-close', expectChecks: [] },
  { file: 'capture-jsonl/capture-http-posts-cancel.jsonl', format: 'capture-jsonl', scenario: 'D-http-stream-close', overrides: { policy: { httpPostsCancel: true } }, expectChecks: ['http-cancel-post-2026'] },
  {
    file: 'capture-jsonl/capture-reconnect-lockstep.jsonl',
    format: 'capture-jsonl',
    scenario: 'D-http-stream-close',
    extra: {
      text: 'after the run the connection drops at 2000 ms and the client retries every 5000 ms exactly (three failures, then success) — a synthetic reconnect loop with no jitter',
      records: (r) => [
        ...r,
        { type: 'meta', atMs: 2000, kind: 'disconnect', transport: 'streamable-http', text: 'connection dropped' },
        { type: 'meta', atMs: 7000, kind: 'connect-failed', transport: 'streamable-http', text: 'reconnect attempt 1: 503' },
        { type: 'meta', atMs: 12000, kind: 'connect-failed', transport: 'streamable-http', text: 'reconnect attempt 2: 503' },
        { type: 'meta', atMs: 17000, kind: 'connect-failed', transport: 'streamable-http', text: 'reconnect attempt 3: 503' },
        { type: 'meta', atMs: 22000, kind: 'connect', transport: 'streamable-http', text: 'reconnect attempt 4: connected' },
      ],
    },
    expectChecks: ['reconnect-lockstep'],
  },
];

/**
 * Builds every sample from the built-in scenarios `scenario(id)` returns (races lab). Client-side
 * observer: client messages when sent, server messages when they arrive.
 */
export function buildTranscriptSamples(scenario: (id: string) => Scenario): TranscriptSample[] {
  return SPECS.map((spec) => {
    let s = scenario(spec.scenario);
    if (spec.edit) s = spec.edit.apply(s);
    const trace = replayRaces(withOverrides(s, spec.overrides));
    let records = racesWireRecords(trace);
    if (spec.extra) records = spec.extra.records(records);
    const text = exportTranscript(records, spec.format, { serverName: 'lab' });
    return {
      file: spec.file,
      format: spec.format,
      source: {
        lab: 'races',
        scenario: spec.scenario,
        ...(spec.overrides ? { overrides: spec.overrides } : {}),
        ...(spec.edit ? { edit: spec.edit.text } : {}),
        ...(spec.extra ? { extra: spec.extra.text } : {}),
      },
      expectChecks: [...new Set(spec.expectChecks)].sort(),
      ...(spec.checkOptions ? { checkOptions: spec.checkOptions } : {}),
      text,
    };
  });
}

/** The manifest `public/transcripts/index.json`: every sample without its text, plus the reserved slot for the official-SDK recording. */
export function samplesManifest(samples: readonly TranscriptSample[]): Json {
  return {
    generatedBy: 'npm run transcripts (scripts/gen-transcripts.ts) from the races lab built-in scenarios',
    samples: samples.map(({ text: _text, ...rest }) => rest as unknown as Json),
    reserved: [{ dir: 'sdk/', what: 'a transcript recorded from the official MCP TypeScript SDK in the differential tests (written by the spec-fidelity work, not by this script)' }],
  };
}
