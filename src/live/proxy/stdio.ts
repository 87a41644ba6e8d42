/**
 * The stdio proxy (`mcp-lab proxy -- SERVER_CMD ARGS…`): a host runs it as its server command; it
 * spawns the real server and passes bytes both ways. With no fault the bytes are piped unchanged
 * (Node's pipe, with backpressure) and only copied aside, split into lines, for the recording;
 * with a fault, complete lines are forwarded one by one through the fault. The server's stderr
 * goes to the proxy's stderr (never to stdout, which is the protocol) and into the recording as
 * `stderr` lines. Real processes and time live here (the live floor).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { LiveFaultName } from '../../sim/faultVocabulary';
import type { Recorder } from '../recorder';
import { parseFrame } from './faults';

/** Splits a byte stream into lines without copying a line's chunks more than once (a 10 MB line stays linear). */
export class LineSplitter {
  private parts: Buffer[] = [];
  /** Feeds `chunk`; calls `onLine` with each complete line (without its `\n`). */
  push(chunk: Buffer, onLine: (line: Buffer) => void): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      if (this.parts.length) {
        this.parts.push(piece);
        onLine(Buffer.concat(this.parts));
        this.parts = [];
      } else onLine(piece);
      start = nl + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.subarray(start));
  }
  /** The bytes after the last newline (a partial line), and forgets them. */
  rest(): Buffer | null {
    if (!this.parts.length) return null;
    const b = Buffer.concat(this.parts);
    this.parts = [];
    return b;
  }
}

/** Options of `startStdioProxy`. */
export interface StdioProxyOptions {
  command: string;
  args: string[];
  recorder: Recorder;
  faults: LiveFaultName[];
  /** How long `late-result` holds a response (ms). */
  faultDelayMs: number;
  /** The client's side (default: the process's stdin / stdout); the server's stderr goes to `errOut`. */
  input?: Readable;
  output?: Writable;
  errOut?: Writable;
  /** After the client's input ends, how long the server gets to exit before SIGTERM, then SIGKILL (ms). */
  exitGraceMs?: number;
}

/** A running stdio proxy. */
export interface StdioProxy {
  child: ChildProcess;
  /** Resolves when the server has exited and every byte it wrote was passed on: its exit code (1 when it could not start) and signal. */
  done: Promise<{ code: number; signal: NodeJS.Signals | null; error: string | null }>;
  /** Stops the server (SIGTERM, then SIGKILL after the grace). */
  stop(why: string): void;
}

const text = (b: Buffer) => b.toString('utf8').replace(/\r$/, '');

/**
 * Spawns the server and starts passing bytes.
 * The returned `done` never rejects: a spawn failure resolves with code 1 and `error`.
 */
export function startStdioProxy(o: StdioProxyOptions): StdioProxy {
  const input = o.input ?? process.stdin;
  const output = o.output ?? process.stdout;
  const errOut = o.errOut ?? process.stderr;
  const grace = o.exitGraceMs ?? 2000;
  const rec = o.recorder;
  const faults = new Set(o.faults);
  rec.frame({ direction: 'meta', transport: 'stdio', event: 'connect', text: [o.command, ...o.args].join(' ') });
  const child = spawn(o.command, o.args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let spawnError: string | null = null;
  let killTimer: NodeJS.Timeout | null = null;

  const stop = (why: string) => {
    if (child.exitCode !== null || child.signalCode !== null || killTimer) return;
    rec.frame({ direction: 'meta', transport: 'stdio', event: 'note', text: `stopping the server: ${why}` });
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), grace);
    killTimer.unref();
  };

  // Client → server.
  const c2s = new LineSplitter();
  const toServer = (line: Buffer) => rec.frame({ direction: 'c2s', transport: 'stdio', raw: text(line) });
  const s2c = new LineSplitter();
  const fromServer = (line: Buffer) => rec.frame({ direction: 's2c', transport: 'stdio', raw: text(line) });
  const errLines = new LineSplitter();

  child.stdin?.on('error', () => {}); // the server went away mid-write: its exit is recorded below
  output.on('error', () => stop('the client closed its end'));

  if (faults.size === 0) {
    input.on('data', (chunk: Buffer) => c2s.push(chunk, toServer));
    child.stdout?.on('data', (chunk: Buffer) => s2c.push(chunk, fromServer));
    input.pipe(child.stdin as Writable);
    child.stdout?.pipe(output, { end: false });
  } else {
    const calls = new Map<string, unknown>(); // tools/call id → progress token
    const mark = (fault: LiveFaultName, requestId: unknown, what: string) =>
      rec.frame({ direction: 'meta', transport: 'stdio', event: 'fault', fault, ...(typeof requestId === 'string' || typeof requestId === 'number' ? { requestId } : {}), text: what });
    const send = (w: Writable | null | undefined, line: Buffer) => {
      if (!w || w.destroyed) return;
      w.write(Buffer.concat([line, Buffer.from('\n')]));
    };
    input.on('data', (chunk: Buffer) =>
      c2s.push(chunk, (line) => {
        toServer(line);
        const m = parseFrame(text(line));
        if (m?.method === 'tools/call' && 'id' in m) calls.set(JSON.stringify(m.id), (m.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken);
        if (m?.method === 'notifications/cancelled') {
          const id = (m.params as { requestId?: unknown } | undefined)?.requestId;
          if (faults.has('ignore-cancel')) return mark('ignore-cancel', id, 'dropped the cancellation: the server never hears it');
          if (faults.has('crash-on-cancel')) {
            mark('crash-on-cancel', id, 'killed the server as the cancellation passed');
            child.kill('SIGKILL');
            return;
          }
        }
        send(child.stdin, line);
      }),
    );
    input.on('end', () => {
      const rest = c2s.rest();
      if (rest) send(child.stdin, rest);
    });
    child.stdout?.on('data', (chunk: Buffer) =>
      s2c.push(chunk, (line) => {
        const m = parseFrame(text(line));
        if (m?.method === 'notifications/progress' && faults.has('no-progress')) {
          fromServer(line);
          return mark('no-progress', null, 'dropped a progress notification');
        }
        const key = m && 'id' in m && !('method' in m) ? JSON.stringify(m.id) : null;
        if (key === null || !calls.has(key)) {
          fromServer(line);
          return send(output, line);
        }
        const token = calls.get(key);
        calls.delete(key);
        const deliver = () => {
          if (faults.has('response-for-unknown-id')) {
            const forged = Buffer.from(JSON.stringify({ ...m, id: `mcp-lab-proxy-unknown-${key}` }));
            mark('response-for-unknown-id', m?.id, 'sent a copy of the response for an id the client never used');
            rec.frame({ direction: 's2c', transport: 'stdio', raw: text(forged) });
            send(output, forged);
          }
          fromServer(line);
          send(output, line);
          if (faults.has('duplicate-response')) {
            mark('duplicate-response', m?.id, 'sent the response a second time');
            rec.frame({ direction: 's2c', transport: 'stdio', raw: text(line) });
            send(output, line);
          }
          if (faults.has('progress-after-result') && token !== undefined) {
            // 250 ms after the result: plainly after it on any clock, beyond any in-flight allowance.
            setTimeout(() => {
              const stray = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1e9 } }));
              mark('progress-after-result', m?.id, 'sent progress for the finished request');
              rec.frame({ direction: 's2c', transport: 'stdio', raw: text(stray) });
              send(output, stray);
            }, 250).unref();
          }
        };
        if (faults.has('late-result')) {
          mark('late-result', m?.id, `holding the response ${o.faultDelayMs} ms`);
          setTimeout(deliver, o.faultDelayMs).unref();
        } else deliver();
      }),
    );
  }

  child.stderr?.on('data', (chunk: Buffer) => {
    errOut.write(chunk);
    errLines.push(chunk, (line) => rec.frame({ direction: 'stderr', transport: 'stdio', raw: text(line) }));
  });

  input.on('end', () => {
    rec.frame({ direction: 'meta', transport: 'stdio', event: 'disconnect', text: 'the client closed stdin' });
    child.stdin?.end();
    const t = setTimeout(() => stop(`still running ${grace} ms after the client closed stdin`), grace);
    t.unref();
    child.once('exit', () => clearTimeout(t));
  });

  const done = new Promise<{ code: number; signal: NodeJS.Signals | null; error: string | null }>((resolve) => {
    child.once('error', (err: NodeJS.ErrnoException) => {
      spawnError = `cannot start ${JSON.stringify(o.command)}: ${err.code ?? err.message}`;
      rec.frame({ direction: 'meta', transport: 'stdio', event: 'exit', code: null, signal: null, text: spawnError });
      input.unpipe?.();
      resolve({ code: 1, signal: null, error: spawnError });
    });
    // 'close': the process exited and its stdio streams ended (every byte it wrote has been read).
    child.once('close', (code, signal) => {
      if (spawnError) return;
      if (killTimer) clearTimeout(killTimer);
      for (const [split, dir] of [[c2s, 'c2s'], [s2c, 's2c'], [errLines, 'stderr']] as const) {
        const rest = split.rest();
        if (rest && rest.length) {
          if (dir === 'stderr') rec.frame({ direction: 'stderr', transport: 'stdio', raw: text(rest) });
          else rec.frame({ direction: 'meta', transport: 'stdio', event: 'note', text: `${dir}: ${rest.length} bytes after the last newline (a partial line, passed on as it was): ${text(rest).slice(0, 200)}` });
        }
      }
      rec.frame({ direction: 'meta', transport: 'stdio', event: 'exit', code, signal, text: `the server exited${signal ? ` on ${signal}` : ` with code ${code}`}` });
      input.unpipe?.();
      resolve({ code: code ?? (signal ? 128 + (signal === 'SIGKILL' ? 9 : 15) : 1), signal, error: null });
    });
  });
  return { child, done, stop };
}
