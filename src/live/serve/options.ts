/**
 * `mcp-lab serve` command line: flags → `ServeOptions`, with one clear line per problem.
 * Pure (no I/O): the command (`command.ts`) reads files and opens sockets.
 */
import { parseFaultList, type LiveFaultName } from '../../sim/faultVocabulary';
import { TOOL_SET_NAMES, type ToolSetName } from './toolSets';

/** The safety limits of one `serve` process (printed on stderr at start). */
export interface ServeCaps {
  /** Tool calls the process answers in its lifetime; later calls get an error result. */
  maxCalls: number;
  /** Longest a call may run (ms): every fault's wait is clipped to it. */
  maxDurationMs: number;
  /** Largest tool result text (bytes, UTF-8): `big-result` is clipped to it. */
  maxResultBytes: number;
  /** Largest inbound message (bytes): a longer stdio line or HTTP body is dropped with one stderr line (HTTP: 413). */
  maxRequestBytes: number;
  /** Tool calls running at once; one more gets an error result. */
  maxConcurrentCalls: number;
}

/** The default caps (README "Safety limits"). */
export const DEFAULT_CAPS: Readonly<ServeCaps> = {
  maxCalls: 10_000,
  maxDurationMs: 120_000,
  maxResultBytes: 8 * 1024 * 1024,
  maxRequestBytes: 4 * 1024 * 1024,
  maxConcurrentCalls: 64,
};

/** Everything `serve` was asked for. */
export interface ServeOptions {
  /** null: stdio; else Streamable HTTP at `http://host:port/mcp`. */
  http: { host: string; port: number } | null;
  /** Allow a non-loopback `--http` address. */
  unsafeBind: boolean;
  faults: LiveFaultName[];
  tools: ToolSetName;
  /** `--chaos SEED` (unsigned 32-bit), or null. */
  chaosSeed: number | null;
  /** `--record FILE`, or null. */
  record: string | null;
  /** `--scenario FILE`, or null. */
  scenario: string | null;
  /** SSE keep-alive comment interval on HTTP response streams (ms; 0: none). */
  keepAliveMs: number;
  caps: ServeCaps;
}

/** Loopback host names `--http` accepts without `--unsafe-bind`. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1', '[::1]'] as const;

/** The result of parsing: options, or the one line naming what is wrong. */
export type ParsedServeArgs = { ok: true; options: ServeOptions } | { ok: false; error: string };

const CAP_FLAGS: Record<string, keyof ServeCaps> = {
  '--max-calls': 'maxCalls',
  '--max-duration-ms': 'maxDurationMs',
  '--max-result-bytes': 'maxResultBytes',
  '--max-request-bytes': 'maxRequestBytes',
  '--max-concurrent': 'maxConcurrentCalls',
};

/** Parses `HOST:PORT` (IPv6 in brackets); the port is 0–65535 (0: any free port). */
export function parseHostPort(text: string): { host: string; port: number } | string {
  const m = /^(\[[0-9a-fA-F:]+\]|[^:[\]]+):(\d{1,5})$/.exec(text);
  if (!m) return `--http: ${JSON.stringify(text)} is not HOST:PORT (e.g. 127.0.0.1:3333)`;
  const port = Number(m[2]);
  if (port > 65535) return `--http: port ${port} is out of range (0–65535)`;
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

/**
 * Parses the argv after `serve`. Never throws: a bad flag gives `{ ok: false, error }` with one
 * line naming the flag and the problem.
 */
export function parseServeArgs(argv: readonly string[]): ParsedServeArgs {
  const options: ServeOptions = { http: null, unsafeBind: false, faults: [], tools: 'lab', chaosSeed: null, record: null, scenario: null, keepAliveMs: 15_000, caps: { ...DEFAULT_CAPS } };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const takesValue = flag !== '--unsafe-bind';
    const value = takesValue ? argv[i + 1] : undefined;
    if (takesValue && (value === undefined || value.startsWith('--'))) return { ok: false, error: `${flag}: needs a value` };
    if (takesValue) i++;
    const v = value as string;
    switch (flag) {
      case '--http': {
        const hp = parseHostPort(v);
        if (typeof hp === 'string') return { ok: false, error: hp };
        options.http = hp;
        break;
      }
      case '--unsafe-bind':
        options.unsafeBind = true;
        break;
      case '--fault':
        try {
          options.faults = [...options.faults, ...parseFaultList(v).filter((f) => !options.faults.includes(f))];
        } catch (err) {
          return { ok: false, error: `--fault: ${(err as Error).message}` };
        }
        break;
      case '--tools':
        if (!(TOOL_SET_NAMES as readonly string[]).includes(v)) return { ok: false, error: `--tools: ${JSON.stringify(v)} is not a tool set — use ${TOOL_SET_NAMES.join(', ')}` };
        options.tools = v as ToolSetName;
        break;
      case '--chaos':
        if (!/^\d{1,10}$/.test(v) || Number(v) > 0xffffffff) return { ok: false, error: `--chaos: ${JSON.stringify(v)} is not a seed (an integer 0–4294967295)` };
        options.chaosSeed = Number(v);
        break;
      case '--record':
        options.record = v;
        break;
      case '--scenario':
        options.scenario = v;
        break;
      case '--keepalive-ms':
        if (!/^\d{1,9}$/.test(v)) return { ok: false, error: `--keepalive-ms: ${JSON.stringify(v)} is not a whole number of milliseconds` };
        options.keepAliveMs = Number(v);
        break;
      default: {
        const cap = CAP_FLAGS[flag];
        if (!cap) return { ok: false, error: `unknown option ${JSON.stringify(flag)} — see mcp-lab serve --help` };
        if (!/^\d{1,10}$/.test(v) || Number(v) < 1) return { ok: false, error: `${flag}: ${JSON.stringify(v)} is not a positive whole number` };
        options.caps[cap] = Number(v);
      }
    }
  }
  if (options.http && !options.unsafeBind && !(LOOPBACK_HOSTS as readonly string[]).includes(options.http.host)) {
    return { ok: false, error: `--http: ${options.http.host} is not a loopback address — serve listens on 127.0.0.1, localhost or ::1 unless you add --unsafe-bind` };
  }
  return { ok: true, options };
}

/** The start-up line printed on stderr: transport, faults, tools and every cap. */
export function capsLine(options: ServeOptions, address: string): string {
  const c = options.caps;
  const faults = options.faults.length ? options.faults.join(',') : 'none';
  const chaos = options.chaosSeed === null ? '' : ` · chaos seed ${options.chaosSeed}`;
  return `mcp-lab serve: ${address} · faults: ${faults}${chaos} · tools: ${options.tools} · caps: ${c.maxCalls} calls, ${c.maxConcurrentCalls} at once, ${c.maxDurationMs} ms per call, ${c.maxResultBytes} bytes per result, ${c.maxRequestBytes} bytes per request`;
}
