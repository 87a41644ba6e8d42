/**
 * The state one `serve` process shares across its per-request (HTTP, 2026-07-28) or per-connection
 * (stdio, legacy HTTP session) server instances: the recorder, the caps' counters, the chaos draw,
 * and the channels through which a fault writes frames the SDK would never write.
 *
 * Real time lives here (the live floor); `src/sim` stays pure.
 */
import { SeededRandom } from '../../sim/rng';
import { CHAOS_TO_LIVE, LIVE_FAULTS, type LiveFaultName } from '../../sim/faultVocabulary';
import { FAULT_KINDS } from '../../sim/chaos/faults';
import type { CaptureTransport } from '../../wire/transcript/capture';
import { NO_RECORDER, type Recorder } from '../recorder';
import type { ServeCaps } from './options';

/** The MCP revision a request was made under (what the envelope or the handshake said). */
export type Revision = '2026-07-28' | '2025-11-25' | string;

/**
 * How a fault reaches the wire for one request, beside the SDK: write a raw JSON-RPC frame on the
 * request's transport (stdio: a line on stdout; HTTP: an SSE event on the request's response
 * stream), end the response stream, hold its bytes, drop keep-alives. The transport layer
 * (`stdio.ts`, `http.ts`) makes one per inbound request.
 */
export interface RequestChannel {
  transport: CaptureTransport;
  revision: Revision;
  /** Writes one JSON-RPC message as raw text; false when it could not be written (stream closed). */
  writeRaw(message: unknown): boolean;
  /** Frames to write right after the SDK's response for this request (duplicate, unknown id, stray progress). */
  afterResponse(frames: (response: Record<string, unknown>) => unknown[]): void;
  /** HTTP: ends the response stream now, before the result (false on stdio). */
  cutStream(): boolean;
  /** HTTP: holds every byte of the response (headers included) for `ms` (false on stdio). */
  holdFirstByte(ms: number): boolean;
  /** HTTP: drops SSE keep-alive comments on this response stream (false on stdio). */
  dropKeepAlives(): boolean;
}

/** The per-process runtime. */
export interface ServeRuntime {
  caps: ServeCaps;
  recorder: Recorder;
  /** The faults `--fault` applies to every tool call (and those the `--scenario` mapped). */
  faults: readonly LiveFaultName[];
  /** One stderr line (never stdout: in stdio mode stdout is the protocol); also recorded as `stderr`. */
  log(line: string, transport?: CaptureTransport): void;
  /** Records a fault mark and prints it. */
  fault(name: LiveFaultName, requestId: string | number, transport: CaptureTransport, text: string): void;
  /** Registers the channel of an inbound request (replacing an older one with the same id). */
  setChannel(requestId: string | number, channel: RequestChannel): void;
  channel(requestId: string | number): RequestChannel | undefined;
  dropChannel(requestId: string | number, channel: RequestChannel): void;
  /** Admits one tool call: null, or the reason it is refused (a cap). Call `done` when it ends. */
  admit(): { done(): void } | string;
  /** `--chaos`: the fault drawn for the next call on `transport` (null: none), printed and recorded. */
  drawChaos(requestId: string | number, tool: string, transport: CaptureTransport): LiveFaultName | null;
  /** Calls admitted so far. */
  readonly calls: number;
  /** `slow_job` (and fault tools) timings when the call gives none (`--scenario` sets them). */
  jobDefaults: { durationMs: number; progressEveryMs: number; resultBytes?: number };
}

/** Chance that a call draws a fault under `--chaos` (the rest run clean, so a session shows both). */
export const CHAOS_FAULT_RATE = 0.5;

/**
 * The chaos draw alone (for tests and for the runtime): per call, in order, one `next()` decides
 * whether the call is faulted and one more picks the chaos kind among those whose live fault acts
 * on the transport. Same seed, same call order, same transport: same faults.
 */
export function chaosDrawer(seed: number): (transport: CaptureTransport) => { kind: string; fault: LiveFaultName } | null {
  const random = new SeededRandom(seed);
  return (transport) => {
    const faulted = random.next() < CHAOS_FAULT_RATE;
    const kinds = FAULT_KINDS.filter((k) => LIVE_FAULTS[CHAOS_TO_LIVE[k]].transports.includes(transport));
    const pickAt = random.next();
    if (!faulted) return null;
    const kind = kinds[Math.floor(pickAt * kinds.length)];
    return { kind, fault: CHAOS_TO_LIVE[kind] };
  };
}

/** Options of `createRuntime`. */
export interface RuntimeOptions {
  caps: ServeCaps;
  faults?: readonly LiveFaultName[];
  recorder?: Recorder;
  chaosSeed?: number | null;
  /** Job timings when a call gives none (default 2000 ms, progress every 250 ms). */
  jobDefaults?: { durationMs?: number; progressEveryMs?: number; resultBytes?: number };
  /** Where log lines go (default: process.stderr). */
  stderr?: (text: string) => void;
}

/** Makes the runtime of one serve process. */
export function createRuntime(options: RuntimeOptions): ServeRuntime {
  const recorder = options.recorder ?? NO_RECORDER;
  const write = options.stderr ?? ((text: string) => void process.stderr.write(text));
  const channels = new Map<string, RequestChannel>();
  const keyOf = (id: string | number) => JSON.stringify(id);
  const draw = options.chaosSeed === null || options.chaosSeed === undefined ? null : chaosDrawer(options.chaosSeed);
  let calls = 0;
  let running = 0;
  let callNo = 0;
  const runtime: ServeRuntime = {
    caps: options.caps,
    recorder,
    faults: options.faults ?? [],
    jobDefaults: { durationMs: options.jobDefaults?.durationMs ?? 2000, progressEveryMs: options.jobDefaults?.progressEveryMs ?? 250, ...(options.jobDefaults?.resultBytes !== undefined ? { resultBytes: options.jobDefaults.resultBytes } : {}) },
    log(line, transport = 'stdio') {
      write(`${line}\n`);
      recorder.frame({ direction: 'stderr', transport, raw: line });
    },
    fault(name, requestId, transport, text) {
      recorder.frame({ direction: 'meta', transport, event: 'fault', fault: name, requestId, text });
      write(`mcp-lab serve: fault ${name} on request ${JSON.stringify(requestId)}: ${text}\n`);
    },
    setChannel(requestId, channel) {
      channels.set(keyOf(requestId), channel);
    },
    channel(requestId) {
      return channels.get(keyOf(requestId));
    },
    dropChannel(requestId, channel) {
      if (channels.get(keyOf(requestId)) === channel) channels.delete(keyOf(requestId));
    },
    admit() {
      if (calls >= options.caps.maxCalls) return `call cap reached: this server answers at most ${options.caps.maxCalls} tool calls (--max-calls)`;
      if (running >= options.caps.maxConcurrentCalls) return `too many calls at once: at most ${options.caps.maxConcurrentCalls} (--max-concurrent)`;
      calls++;
      running++;
      let ended = false;
      return {
        done() {
          if (!ended) running--;
          ended = true;
        },
      };
    },
    drawChaos(requestId, tool, transport) {
      if (!draw) return null;
      callNo++;
      const drawn = draw(transport);
      if (!drawn) {
        write(`mcp-lab serve: chaos call ${callNo} (${tool}, request ${JSON.stringify(requestId)}): no fault\n`);
        return null;
      }
      const text = `chaos call ${callNo} drew ${drawn.kind} → ${drawn.fault}`;
      recorder.frame({ direction: 'meta', transport, event: 'note', requestId, text });
      write(`mcp-lab serve: chaos call ${callNo} (${tool}, request ${JSON.stringify(requestId)}): ${drawn.kind} → ${drawn.fault}\n`);
      return drawn.fault;
    },
    get calls() {
      return calls;
    },
  };
  return runtime;
}
