/**
 * Test kit for `mcp-lab serve` (used by its live tests only): starts `serve` as a real child
 * process (stdio or `--http 127.0.0.1:0`), connects a real SDK client — v2
 * (`@modelcontextprotocol/client`, legacy 2025-11-25 or pinned 2026-07-28) or v1
 * (`@modelcontextprotocol/sdk`, 2025-11-25) — and reads the recording back. Every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CaptureFrame } from '../../wire/transcript/capture';

/** The repository root and the CLI entry the child runs (through tsx, so no build is needed). */
export const ROOT = path.resolve(__dirname, '../../..');
const ENTRY = path.join(ROOT, 'src/cli/bin.ts');
/** node + tsx + the CLI: `[command, ...args]` for `serve`. */
export const SERVE_COMMAND = [process.execPath, '--import', 'tsx', ENTRY, 'serve'] as const;

/** Which real client. */
export type ClientKind = 'v2-2025' | 'v2-2026' | 'v1';

/** A fresh temporary recording path. */
export function tempRecording(name = 'serve'): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'mcp-lab-serve-')), `${name}.jsonl`);
}

/** The frames of a recording (one JSON object per line). */
export function readRecording(file: string): (CaptureFrame & { v: number })[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** The JSON-RPC messages a recording shows going one way. */
export function wireMessages(frames: readonly CaptureFrame[], direction: 'c2s' | 's2c'): { ts: number; message: Record<string, unknown> }[] {
  const out: { ts: number; message: Record<string, unknown> }[] = [];
  for (const f of frames) {
    if (f.direction !== direction || !f.raw) continue;
    try {
      out.push({ ts: Date.parse(f.ts), message: JSON.parse(f.raw) });
    } catch {
      /* not JSON */
    }
  }
  return out;
}

/** Waits for `pattern` on a child's stderr (bounded). */
export function waitForStderr(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms; got: ${text.slice(-500)}`)), timeoutMs);
    const onData = (d: Buffer) => {
      text += String(d);
      const m = pattern.exec(text);
      if (m) {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        resolve(m);
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before ${pattern}; stderr: ${text.slice(-500)}`));
    });
  });
}

/** Waits for a child to exit (bounded); resolves with its exit code and signal. */
export function waitForExit(child: ChildProcess, timeoutMs = 10_000): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

/** A running `serve --http`. */
export interface HttpServe {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `serve --http 127.0.0.1:0 …args`, resolved once it prints its URL. */
export async function startHttpServe(args: readonly string[]): Promise<HttpServe> {
  const child = spawn(SERVE_COMMAND[0], [...SERVE_COMMAND.slice(1), '--http', '127.0.0.1:0', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  child.stderr!.on('data', (d) => (text += String(d)));
  const m = await waitForStderr(child, /(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  return {
    child,
    url: m[1],
    stderr: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await waitForExit(child).catch(() => child.kill('SIGKILL'));
    },
  };
}

/** A connected client, uniform over SDK v1 and v2. */
export interface LiveClient {
  kind: ClientKind;
  /** The negotiated revision ('2025-11-25' for v1, which does not report it). */
  revision: string;
  call(name: string, args: Record<string, unknown>, opts?: { signal?: AbortSignal; onprogress?: (p: { progress: number }) => void; timeoutMs?: number; maxTotalTimeoutMs?: number; resetTimeoutOnProgress?: boolean }): Promise<{ content: { type: string; text?: string }[]; isError?: boolean }>;
  close(): Promise<void>;
  /** stdio only: the server child's stderr so far. */
  stderr: () => string;
  /** stdio only: the server child's pid. */
  pid?: number;
  /** Errors the SDK client reported through `onerror` (protocol problems it survived). */
  errors: string[];
}

/** A v2 stdio transport that probes in place (a subclass: no sibling probe process sharing the recording file). */
class InPlaceStdio extends StdioClientTransport {}

/** Connects `kind` to `serve …args` over stdio (the client spawns the server). */
export async function connectStdio(kind: ClientKind, args: readonly string[]): Promise<LiveClient> {
  const params = { command: SERVE_COMMAND[0], args: [...SERVE_COMMAND.slice(1), ...args], cwd: ROOT, stderr: 'pipe' as const };
  let text = '';
  if (kind === 'v1') {
    const transport = new V1Stdio(params);
    transport.stderr?.on('data', (d: Buffer) => (text += String(d)));
    return wrapV1(transport, () => text, () => transport.pid ?? undefined);
  }
  const transport = new InPlaceStdio(params);
  transport.stderr?.on('data', (d: Buffer) => (text += String(d)));
  return wrapV2(kind, transport, () => text, () => transport.pid ?? undefined);
}

/** Connects `kind` to a running `serve --http` at `url`. */
export async function connectHttp(kind: ClientKind, url: string): Promise<LiveClient> {
  if (kind === 'v1') return wrapV1(new V1Http(new URL(url)), () => '', () => undefined);
  return wrapV2(kind, new StreamableHTTPClientTransport(new URL(url)), () => '', () => undefined);
}

async function wrapV2(kind: ClientKind, transport: StreamableHTTPClientTransport | StdioClientTransport, stderr: () => string, pid: () => number | undefined): Promise<LiveClient> {
  const client = new Client(
    { name: 'mcp-lab-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, ...(kind === 'v2-2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) },
  );
  const errors: string[] = [];
  client.onerror = (e) => void errors.push(e.message);
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  await client.connect(transport, { timeout: 20_000 });
  return {
    kind,
    revision: client.getNegotiatedProtocolVersion() ?? 'unknown',
    errors,
    stderr,
    get pid() {
      return pid();
    },
    call: (name, args, opts = {}) =>
      client.callTool({ name, arguments: args }, { signal: opts.signal, onprogress: opts.onprogress, timeout: opts.timeoutMs, maxTotalTimeout: opts.maxTotalTimeoutMs, resetTimeoutOnProgress: opts.resetTimeoutOnProgress }) as never,
    close: () => client.close(),
  };
}

async function wrapV1(transport: V1Stdio | V1Http, stderr: () => string, pid: () => number | undefined): Promise<LiveClient> {
  const client = new V1Client({ name: 'mcp-lab-test-v1', version: '1.0.0' });
  const errors: string[] = [];
  client.onerror = (e) => void errors.push(e.message);
  await client.connect(transport, { timeout: 20_000 });
  return {
    kind: 'v1',
    revision: '2025-11-25',
    errors,
    stderr,
    get pid() {
      return pid();
    },
    call: (name, args, opts = {}) =>
      client.callTool({ name, arguments: args }, undefined, { signal: opts.signal, onprogress: opts.onprogress, timeout: opts.timeoutMs, maxTotalTimeout: opts.maxTotalTimeoutMs, resetTimeoutOnProgress: opts.resetTimeoutOnProgress }) as never,
    close: () => client.close(),
  };
}

/** Settles `promise` into `{ ok, value | error, atMs }`, timed from `t0`. */
export async function settle<T>(promise: Promise<T>, t0: number): Promise<{ ok: true; value: T; atMs: number } | { ok: false; error: string; atMs: number }> {
  try {
    const value = await promise;
    return { ok: true, value, atMs: Date.now() - t0 };
  } catch (err) {
    return { ok: false, error: (err as Error).message, atMs: Date.now() - t0 };
  }
}

/** Resolves after `ms`. */
export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
