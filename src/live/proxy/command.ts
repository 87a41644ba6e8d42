/**
 * `mcp-lab proxy [--record FILE] [--check] [--fault NAME[,NAME]] [--fault-delay-ms N] -- SERVER_CMD ARGS…`
 * `mcp-lab proxy --listen 127.0.0.1:PORT --upstream URL [--record FILE] [--check] [--fault NAME]`
 *
 * Sits between a real client and a real server and records what passed (capture envelope v2):
 * over stdio a host runs it as its server command; over Streamable HTTP it is a reverse proxy.
 * `--check` prints `check`'s findings on stderr as they happen. Clean shutdown on either side's
 * exit and on SIGINT / SIGTERM: the recording is complete JSONL (each line is written whole).
 *
 * Exit: stdio — the server's exit code (1 when it could not start); HTTP — 0 after a signal;
 * 1 on bad input (one line on stderr).
 */
import type { LiveFaultName } from '../../sim/faultVocabulary';
import { NO_RECORDER, openRecorder, type Recorder } from '../recorder';
import { parseProxyFaults } from './faults';
import { startHttpProxy } from './http';
import { startLiveCheck, teeRecorder, type LiveCheck } from './liveCheck';
import { startStdioProxy } from './stdio';

/** A parsed proxy command line. */
export interface ProxyArgs {
  mode: 'stdio' | 'http';
  command: string[];
  listen: { host: string; port: number } | null;
  upstream: URL | null;
  record: string | null;
  check: boolean;
  faults: LiveFaultName[];
  faultDelayMs: number;
}

/**
 * Parses the proxy's argv (everything after `--` is the server command).
 * @throws Error with one line naming the bad option.
 */
export function parseProxyArgs(argv: readonly string[]): ProxyArgs {
  const dash = argv.indexOf('--');
  const own = dash >= 0 ? argv.slice(0, dash) : argv;
  const command = dash >= 0 ? argv.slice(dash + 1) : [];
  let listen: ProxyArgs['listen'] = null;
  let upstream: URL | null = null;
  let record: string | null = null;
  let check = false;
  let faultText: string | null = null;
  let faultDelayMs = 75_000;
  const value = (i: number, flag: string) => {
    const v = own[i];
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag}: missing its value`);
    return v;
  };
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    if (a === '--record') record = value(++i, a);
    else if (a === '--check') check = true;
    else if (a === '--fault') faultText = value(++i, a);
    else if (a === '--fault-delay-ms') {
      const v = value(++i, a);
      if (!/^\d+$/.test(v)) throw new Error(`--fault-delay-ms: must be a whole number of milliseconds, got ${JSON.stringify(v)}`);
      faultDelayMs = Number(v);
    } else if (a === '--listen') {
      const v = value(++i, a);
      const m = /^([^:]+):(\d{1,5})$/.exec(v);
      if (!m || Number(m[2]) > 65535) throw new Error(`--listen: must be HOST:PORT (e.g. 127.0.0.1:8931; port 0 picks one), got ${JSON.stringify(v)}`);
      listen = { host: m[1], port: Number(m[2]) };
    } else if (a === '--upstream') {
      const v = value(++i, a);
      try {
        upstream = new URL(v);
      } catch {
        throw new Error(`--upstream: not a URL: ${JSON.stringify(v)}`);
      }
      if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--upstream: must be http:// or https://, got ${upstream.protocol}`);
    } else throw new Error(`unknown option ${JSON.stringify(a)}${dash < 0 ? ' (put the server command after --)' : ''}`);
  }
  const http = listen !== null || upstream !== null;
  if (http && (listen === null || upstream === null)) throw new Error('Streamable HTTP needs both --listen HOST:PORT and --upstream URL');
  if (http && command.length) throw new Error('give either -- SERVER_CMD ARGS… (stdio) or --listen/--upstream (HTTP), not both');
  if (!http && command.length === 0) throw new Error('no server: give -- SERVER_CMD ARGS… (stdio) or --listen HOST:PORT --upstream URL (HTTP)');
  const mode = http ? 'http' : 'stdio';
  const faults = faultText === null ? [] : parseProxyFaults(faultText, mode);
  return { mode, command, listen, upstream, record, check, faults, faultDelayMs };
}

/** The `proxy` command (see the file's header). Resolves to the exit code. */
export async function proxyCommand(argv: string[]): Promise<number> {
  let args: ProxyArgs;
  let file: Recorder = NO_RECORDER;
  try {
    args = parseProxyArgs(argv);
    if (args.record) file = openRecorder(args.record);
  } catch (err) {
    process.stderr.write(`proxy: ${(err as Error).message}\n`);
    return 1;
  }
  const live: LiveCheck | null = args.check ? startLiveCheck() : null;
  const rec = teeRecorder(file, live);
  const finish = () => {
    live?.flush();
    live?.stop();
    rec.close();
  };

  if (args.mode === 'stdio') {
    const proxy = startStdioProxy({ command: args.command[0], args: args.command.slice(1), recorder: rec, faults: args.faults, faultDelayMs: args.faultDelayMs });
    const onSignal = (sig: NodeJS.Signals) => {
      rec.frame({ direction: 'meta', transport: 'stdio', event: 'note', text: `the proxy got ${sig}` });
      proxy.stop(sig);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const r = await proxy.done;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    finish();
    if (r.error) process.stderr.write(`proxy: ${r.error}\n`);
    process.stdin.destroy();
    return r.code;
  }

  let proxy;
  try {
    proxy = await startHttpProxy({ host: args.listen!.host, port: args.listen!.port, upstream: args.upstream!, recorder: rec, faults: args.faults });
  } catch (err) {
    finish();
    process.stderr.write(`proxy: ${(err as Error).message}\n`);
    return 1;
  }
  process.stderr.write(`mcp-lab proxy: listening on ${proxy.url}${args.upstream!.pathname} → ${args.upstream!.href}${args.record ? `, recording to ${args.record}` : ''}\n`);
  const sig = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  rec.frame({ direction: 'meta', transport: 'http', event: 'note', text: `the proxy got ${sig}` });
  await Promise.race([proxy.close(), new Promise((r) => setTimeout(r, 2000))]);
  rec.frame({ direction: 'meta', transport: 'http', event: 'disconnect', text: 'the proxy stopped' });
  finish();
  return 0;
}
