/**
 * `mcp-lab serve`: a real MCP server (official TypeScript SDK v2) that misbehaves on purpose.
 * stdio by default; `--http HOST:PORT` serves Streamable HTTP at `/mcp`. Resolves with the exit
 * code once the server has stopped (stdin closed, or SIGINT / SIGTERM); bad input → one line, 1 or 2.
 */
import { readFileSync } from 'node:fs';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { openRecorder, NO_RECORDER, type Recorder } from '../recorder';
import { capsLine, parseServeArgs } from './options';
import { createRuntime } from './runtime';
import { openLedger } from './ledger';
import { createServeServer } from './server';
import { ServeStdioTransport } from './stdio';
import { startHttp } from './http';
import { scenarioFaults } from './scenario';

/** Runs `serve` with `argv` (the flags after `serve`). */
export async function serveCommand(argv: string[]): Promise<number> {
  const parsed = parseServeArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(`serve: ${parsed.error}\n`);
    return 2;
  }
  const options = parsed.options;
  let faults = options.faults;
  let jobDefaults: { durationMs?: number; progressEveryMs?: number; resultBytes?: number } = {};
  if (options.scenario) {
    let text: string;
    try {
      text = readFileSync(options.scenario, 'utf8');
    } catch (err) {
      process.stderr.write(`serve: --scenario: cannot read ${options.scenario}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      return 1;
    }
    const mapped = scenarioFaults(text);
    if (!mapped.ok) {
      process.stderr.write(`serve: --scenario ${options.scenario}: ${mapped.error}\n`);
      return 1;
    }
    faults = [...faults, ...mapped.faults.filter((f) => !faults.includes(f))];
    jobDefaults = mapped.job;
    for (const line of mapped.notes) process.stderr.write(`mcp-lab serve: scenario: ${line}\n`);
  }
  let recorder: Recorder = NO_RECORDER;
  if (options.record) {
    try {
      recorder = openRecorder(options.record);
    } catch (err) {
      process.stderr.write(`serve: --record: ${(err as Error).message}\n`);
      return 1;
    }
  }
  const transport = options.http ? 'http' : 'stdio';
  const rt = createRuntime({ caps: options.caps, faults, recorder, chaosSeed: options.chaosSeed, jobDefaults });
  const ledger = await openLedger();
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      recorder.frame({ direction: 'meta', transport, event: 'exit', code: 0, signal, text: `stopped by ${signal}` });
      resolve(0);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  let code: number;
  if (options.http) {
    let http;
    try {
      http = await startHttp(rt, { host: options.http.host, port: options.http.port, keepAliveMs: options.keepAliveMs, streams: options.tools === 'conformance' ? 'sdk' : 'faults', factory: (era, notifier) => createServeServer({ runtime: rt, ledger, tools: options.tools, era, ...(notifier ? { notifier } : {}) }) });
    } catch (err) {
      process.stderr.write(`serve: ${(err as Error).message}\n`);
      recorder.close();
      return 1;
    }
    rt.log(capsLine({ ...options, faults }, http.url), 'http');
    code = await stopped;
    await http.close();
  } else {
    const stdio = new ServeStdioTransport(rt);
    const closed = stdio.ended.then(() => 0);
    rt.log(capsLine({ ...options, faults }, 'stdio'), 'stdio');
    recorder.frame({ direction: 'meta', transport: 'stdio', event: 'connect', text: 'stdio' });
    const handle = serveStdio((ctx) => createServeServer({ runtime: rt, ledger, tools: options.tools, era: ctx.era }), { transport: stdio, onerror: (e) => rt.log(`mcp-lab serve: ${e.message}`) });
    code = await Promise.race([stopped, closed]);
    await handle.close().catch(() => undefined);
  }
  recorder.frame({ direction: 'meta', transport, event: 'exit', code, text: 'serve stopped' });
  recorder.close();
  ledger.close();
  return code;
}
