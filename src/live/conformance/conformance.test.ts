/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.2.0-alpha.12) as the
 * judge of the conformance fixture set: a real Streamable HTTP server on 127.0.0.1:0, the suite
 * as a child process (Node 22, through `scripts/conformance.mjs`, the same path as
 * `npm run conformance`), once per requirement set. Then the judge is shown able to fail: one
 * fixture turned wrong on purpose fails the scenario that checks it.
 *
 * Time on the 2-core dev machine (shared, load average 14): a 2026-07-28 run takes 5–7 s, a
 * 2025-11-25 run 3.3–3.7 s; with the plain-server and the two break runs the file takes about
 * 30 s. Each run is bounded (RUN_TIMEOUT_MS), each scenario by the suite's own 30 s.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceFixtureOptions } from './fixtures';
import { startConformanceHost } from './testHost';
import { readRecording, startHttpServe, tempRecording } from '../serve/testkit';
import type { HostOptions } from './testHost';

const root = join(__dirname, '..', '..', '..');
const suiteRoot = join(root, 'node_modules', '@modelcontextprotocol', 'conformance');
const EXPECTED_FAILURES = join(root, 'conformance', 'expected-failures.yaml');
/** Bound of one whole suite run, in ms (the suite's own per-scenario bound is 30 s). */
const RUN_TIMEOUT_MS = 240_000;

type Revision = '2026-07-28' | '2025-11-25';

/** The tasks-extension scenarios (SEP-2663): not scored, not implemented by SDK v2 2.4. */
const TASKS_EXTENSION = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

/**
 * The URL of the running server under judgement, and how to stop it: `mcp-lab serve --http
 * 127.0.0.1:0 --tools conformance` as a child process, with no fault (its URL read from its
 * start-up line, stopped by its pid).
 */
async function conformanceServerUrl(): Promise<{ url: string; close: () => Promise<void> }> {
  const serve = await startHttpServe(['--tools', 'conformance']);
  return { url: serve.url, close: () => serve.stop() };
}

/**
 * An in-process host with fixtures deliberately changed, for the tests of the judge itself
 * (a broken fixture, a server built without the fixtures' options). These stay on the test
 * host after the merge: they test the suite and the fixtures, not serve.
 */
async function variantServer(fixtures: ConformanceFixtureOptions, host: HostOptions = {}): Promise<{ url: string; close: () => Promise<void> }> {
  return startConformanceHost(fixtures, host);
}

/** One check as the suite writes it to `<out>/server-<scenario>-<timestamp>/checks.json`. */
interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/** Runs `scripts/conformance.mjs ARGS…` (the npm script) with Node 20; resolves its exit code and output. */
function runScript(args: string[]): Promise<{ code: number; output: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/conformance.mjs', '--run-timeout', String(RUN_TIMEOUT_MS - 5_000), ...args],
      { cwd: root, timeout: RUN_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, output: `${stdout}\n${stderr}`, ms: Date.now() - started });
      },
    );
  });
}

/** Scenario name → its checks, read from the suite's output directory. */
function readResults(outDir: string): Map<string, Check[]> {
  const results = new Map<string, Check[]>();
  for (const dir of readdirSync(outDir)) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
    if (!m) continue;
    results.set(m[1], JSON.parse(readFileSync(join(outDir, dir, 'checks.json'), 'utf8')) as Check[]);
  }
  return results;
}

/**
 * The names listed under a top-level YAML key as `  - name` lines (the flat lists of the suite's
 * `requirements/<revision>.yaml` and of our expected-failures file; `key: []` is an empty list).
 */
function yamlList(file: string, key: string): string[] {
  const names: string[] = [];
  let inside = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line) && !line.startsWith('#')) inside = line.startsWith(`${key}:`);
    else if (inside) {
      const m = /^ {2}- ([\w./:-]+)\s*$/.exec(line);
      if (m) names.push(m[1]);
    }
  }
  return names;
}

/** A scenario fails, in the baseline's sense, when any check is a FAILURE or a WARNING. */
const failed = (checks: Check[]): boolean => checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');

describe('npm run conformance (scripts/conformance.mjs)', () => {
  it('without --url: exit 2 and one line saying what to pass', async () => {
    const run = await runScript([]);
    expect(run.code).toBe(2);
    expect(run.output.trim().split('\n')).toEqual([expect.stringMatching(/^conformance: --url http:\/\/127\.0\.0\.1:PORT\/mcp is required/)]);
  });

  it('against a port nothing listens on: the suite reports failures and the exit is 1, not a hang', async () => {
    // Reserve an ephemeral port and release it, so the URL points at a closed port.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/mcp`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const run = await runScript(['--url', url, '--scenario', 'tools-call-simple-text']);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/tools-call-simple-text/);
  });
});

describe('the official conformance suite judges mcp-lab serve --http --tools conformance', () => {
  let host: { url: string; close: () => Promise<void> };
  const tmp = mkdtempSync(join(tmpdir(), 'mcp-lab-conformance-'));
  beforeAll(async () => {
    host = await conformanceServerUrl();
  });
  afterAll(async () => {
    await host?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it.each<Revision>(['2026-07-28', '2025-11-25'])('--requirements %s: every scored scenario passes but the expected failures', async (revision) => {
    const out = join(tmp, revision);
    const run = await runScript(['--url', host.url, '--requirements', revision, '--expected-failures', EXPECTED_FAILURES, '-o', out]);
    const scored = yamlList(join(suiteRoot, 'requirements', `${revision}.yaml`), 'server');
    const expectedFailures = yamlList(EXPECTED_FAILURES, 'server');
    const results = readResults(out);
    console.info(`conformance ${revision}: ${scored.length} scored scenarios, ${results.size} run, ${(run.ms / 1000).toFixed(1)} s`);

    expect(scored.length).toBeGreaterThan(25); // the requirement file was read
    const missing = scored.filter((s) => !results.has(s));
    expect(missing, 'scored scenarios the suite did not run').toEqual([]);
    const unexpected = scored.filter((s) => failed(results.get(s) ?? []) && !expectedFailures.includes(s));
    const report = unexpected.map((s) => `${s}: ${(results.get(s) ?? []).filter((c) => c.status !== 'SUCCESS').map((c) => `${c.id} ${c.status} ${c.errorMessage ?? ''}`).join('; ')}`);
    expect(report, 'scored scenarios that failed').toEqual([]);
    // An expected failure of this revision that passes is stale: the suite exits 1, and so do we.
    const stale = expectedFailures.filter((s) => results.has(s) && !failed(results.get(s) ?? []));
    expect(stale, 'expected failures that now pass').toEqual([]);
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(run.output).toContain(`Running requirements ${revision}`);
    // Not scored (outside the baseline by the suite's rule), but run for visibility: what fails
    // there is exactly the tasks extension (SEP-2663, 2026-07-28 only), listed in the comments of
    // conformance/expected-failures.yaml. A change here means that comment needs updating.
    const notScoredFailing = [...results].filter(([s, checks]) => !scored.includes(s) && failed(checks)).map(([s]) => s).sort();
    expect(notScoredFailing).toEqual(revision === '2026-07-28' ? [...TASKS_EXTENSION].sort() : []);
  });

  it('without conformanceServerOptions() (a plain McpServer): only input-required-result-tampered-state fails', async () => {
    // A tool handler cannot answer a JSON-RPC error (McpServer turns a throw into an isError
    // result), so refusing tampered requestState with -32602 needs the SDK's seam hook, which
    // only server options install. This is why serve must build its conformance servers with them.
    const plain = await variantServer({}, { plainServer: true });
    try {
      const out = join(tmp, 'plain-2026');
      const run = await runScript(['--url', plain.url, '--requirements', '2026-07-28', '--expected-failures', EXPECTED_FAILURES, '-o', out]);
      const results = readResults(out);
      const scored = yamlList(join(suiteRoot, 'requirements', '2026-07-28.yaml'), 'server');
      expect(scored.filter((s) => !results.has(s) || failed(results.get(s) ?? []))).toEqual(['input-required-result-tampered-state']);
      const check = results.get('input-required-result-tampered-state')?.find((c) => c.id === 'sep-2322-reject-tampered-state');
      expect(check?.status).toBe('FAILURE');
      expect(check?.errorMessage).toMatch(/accepted tampered requestState/);
      expect(run.code).toBe(1);
    } finally {
      await plain.close();
    }
  });

  it('the judge can fail: an empty text result fails tools-call-simple-text (2026-07-28)', async () => {
    const broken = await variantServer({ break: 'test_simple_text' });
    try {
      const out = join(tmp, 'break-simple-text');
      const run = await runScript(['--url', broken.url, '--requirements', '2026-07-28', '--expected-failures', EXPECTED_FAILURES, '-o', out]);
      const results = readResults(out);
      const failing = [...results].filter(([, checks]) => failed(checks)).map(([s]) => s);
      // Exactly the scenario that checks the broken fixture fails among the scored ones.
      const scored = new Set(yamlList(join(suiteRoot, 'requirements', '2026-07-28.yaml'), 'server'));
      expect(failing.filter((s) => scored.has(s))).toEqual(['tools-call-simple-text']);
      expect(results.get('tools-call-simple-text')?.find((c) => c.status === 'FAILURE')?.errorMessage).toMatch(/content/i);
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/tools-call-simple-text/);
    } finally {
      await broken.close();
    }
  });

  it('the judge fails a fault: serve --tools conformance --fault no-progress fails tools-call-with-progress alone (2025-11-25)', async () => {
    // The real serve process, not the test host: --fault reaches the fixtures, and no-progress
    // keeps test_tool_with_progress silent, so the scenario that counts progress fails.
    const record = tempRecording('conformance-no-progress');
    const faulty = await startHttpServe(['--tools', 'conformance', '--fault', 'no-progress', '--record', record]);
    try {
      expect(faulty.stderr()).toMatch(/faults: no-progress · tools: conformance/);
      const out = join(tmp, 'fault-no-progress');
      const run = await runScript(['--url', faulty.url, '--requirements', '2025-11-25', '--expected-failures', EXPECTED_FAILURES, '-o', out]);
      const results = readResults(out);
      const scored = yamlList(join(suiteRoot, 'requirements', '2025-11-25.yaml'), 'server');
      expect(scored.filter((s) => !results.has(s)), 'scored scenarios the suite did not run').toEqual([]);
      const failing = scored.filter((s) => failed(results.get(s) ?? []));
      expect(failing).toEqual(['tools-call-with-progress']);
      expect(results.get('tools-call-with-progress')?.find((c) => c.status === 'FAILURE')?.errorMessage).toMatch(/^No progress notifications received$/);
      expect(run.code).toBe(1);
    } finally {
      await faulty.stop();
    }
    const marks = readRecording(record).filter((f) => f.event === 'fault');
    expect(marks.length).toBeGreaterThanOrEqual(1);
    expect(marks.every((f) => f.fault === 'no-progress' && /test_tool_with_progress: silent/.test(f.text ?? ''))).toBe(true);
  });

  it('the judge can fail: one progress notification instead of three fails tools-call-with-progress (2025-11-25)', async () => {
    const broken = await variantServer({ break: 'test_tool_with_progress' });
    try {
      const out = join(tmp, 'break-progress');
      const run = await runScript(['--url', broken.url, '--requirements', '2025-11-25', '--expected-failures', EXPECTED_FAILURES, '-o', out]);
      const results = readResults(out);
      const scored = new Set(yamlList(join(suiteRoot, 'requirements', '2025-11-25.yaml'), 'server'));
      const failing = [...results].filter(([s, checks]) => scored.has(s) && failed(checks)).map(([s]) => s);
      expect(failing).toEqual(['tools-call-with-progress']);
      expect(results.get('tools-call-with-progress')?.find((c) => c.status === 'FAILURE')?.errorMessage).toMatch(/at least 3 progress/i);
      expect(run.code).toBe(1);
    } finally {
      await broken.close();
    }
  });
});
