/**
 * Test targets for the live programs (probe, proxy): the lab's own SDK v2 fixture server
 * (`src/live/probe/__tests__/fixtures/slowServer.mjs`, over stdio or Streamable HTTP, with its
 * deliberately broken variants) and the registry server nobody here wrote
 * (`@modelcontextprotocol/server-everything`, over stdio). A target is one value — a command or a
 * URL — so a test can run the same probe against `mcp-lab serve` by passing its command or URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ProbeTarget } from '../probe/session';

/** The fixture server's file. */
export const FIXTURE = path.resolve(import.meta.dirname, '../probe/__tests__/fixtures/slowServer.mjs');

/** The fixture's variants (see its header). */
export type FixtureVariant = 'ok' | 'answers-after-cancel' | 'non-monotonic' | 'dies-on-malformed' | 'keyed' | 'double-charge';

/** The fixture over stdio. */
export function fixtureStdio(variant: FixtureVariant = 'ok'): ProbeTarget {
  return { kind: 'stdio', command: process.execPath, args: [FIXTURE, '--variant', variant] };
}

/** server-everything's bin (stdio by default), resolved from the installed package. */
export const SERVER_EVERYTHING = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** server-everything over stdio. Its long-running tool is `trigger-long-running-operation` ({ duration s, steps }). */
export function serverEverythingStdio(): ProbeTarget {
  return { kind: 'stdio', command: process.execPath, args: [SERVER_EVERYTHING, 'stdio'] };
}

/** A running HTTP fixture: its endpoint and how to stop it. */
export interface HttpFixture {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts the fixture on Streamable HTTP (127.0.0.1, port 0) and resolves once it printed its port.
 * @throws Error when it does not listen within 10 s.
 */
export function startFixtureHttp(variant: FixtureVariant = 'ok'): Promise<HttpFixture> {
  const child = spawn(process.execPath, [FIXTURE, '--variant', variant, '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the HTTP fixture did not listen within 10 s'));
    }, 10_000);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${m[1]}/mcp`,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the HTTP fixture exited (${code}) before listening`));
    });
  });
}

/**
 * Which probe a server fault of the vocabulary must fail (the others must not), for "probe vs
 * `mcp-lab serve --fault NAME`" tests: faults the probe is not built to see (client-side lessons such
 * as late-result or no-first-byte) are absent. `needsTool`: the probe needs `--tool` to see it.
 */
export const FAULT_PROBE: Readonly<Partial<Record<import('../../sim/faultVocabulary').LiveFaultName, { probe: import('../probe/findings').ProbeId; needsTool: boolean }>>> = {
  'ignore-cancel': { probe: 'cancel-stops-work', needsTool: true },
  'progress-after-result': { probe: 'progress-stops-at-result', needsTool: true },
  'duplicate-response': { probe: 'one-response-per-request', needsTool: true },
  'response-for-unknown-id': { probe: 'one-response-per-request', needsTool: true },
  'crash-on-cancel': { probe: 'cancel-unknown-id', needsTool: false },
  'naive-ledger': { probe: 'idempotency-once', needsTool: true },
};
