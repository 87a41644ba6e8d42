import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reviewCommand } from '../review';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs the command in-process with an in-memory file system over the real one. */
async function run(argv: string[], files: Record<string, string> = {}, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await reviewCommand(argv, {
    env,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (f) => (f in files ? files[f] : readFileSync(path.resolve(root, f), 'utf8')),
  });
  return { code, stdout, stderr };
}

const GOOD = {
  retry: { policy: 'classified', ledger: 'shared-durable', externalEffect: 'outbox', resultsAliasStorage: false },
  sse: { queueCapacityEvents: 256 },
};

describe('review [--inputs FILE.json] [--transcript FILE] [--html] [--redact]', () => {
  it('with no arguments writes the Markdown review of the lesson\'s runs (exit 0)', async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.startsWith('# Reliability review\n')).toBe(true);
    expect(r.stdout).toContain('## Race table');
    expect(r.stdout).toMatch(/\| 12 \| caller mutation of a returned result then a clean replay \| passed \|/);
    expect(r.stdout).toContain('**incomplete**');
  });

  it('every link is a complete address of the lab (default where npm start serves it, --base another) and names its scenario', async () => {
    const r = await run([]);
    expect(r.code).toBe(0);
    const links = [...r.stdout.matchAll(/\[([^\]]*)\]\(([^)]*)\)/g)].map((m) => ({ text: m[1], href: m[2] }));
    expect(links.length).toBeGreaterThan(40);
    expect(links.filter((l) => !l.href.startsWith('http://localhost:5173/#/'))).toEqual([]);
    expect(r.stdout).toContain('Every link replays the claim beside it in the lab at http://localhost:5173/.');
    // "Inferred from the evidence": one item per source, each named — no "ledger run (edited scenario)" pointing at the bare lab.
    const inferred = r.stdout.split('Inferred from the evidence:')[1].split('\n\n')[1].split('\n');
    expect(inferred.map((line) => /^- \[([^\]]*)\]/.exec(line)?.[1])).toEqual([
      'resilience/T1-abort-before-task-id',
      'flow/F1-stalled-subscriber (edited)',
      'ledger/D-same-key',
      'races/D-http-stream-close',
      'ledger practice check result-immutable',
    ]);
    expect(r.stdout).not.toContain('(edited scenario)');
    const port = await run([], {}, { LAB_PORT: '4400' });
    expect(port.stdout).toContain('](http://localhost:4400/#/races/A-cancel-then-complete)');
    const hosted = await run(['--base', 'https://example.org/mcp-lab/#/races', '--html']);
    expect(hosted.code).toBe(0);
    expect(hosted.stdout).toContain('<a href="https://example.org/mcp-lab/#/races/A-cancel-then-complete">');
    expect(hosted.stdout).not.toMatch(/href="#/);
    const bad = await run(['--base', 'example.org']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^--base: must be the http\(s\) address the lab is served at, got "example\.org" — e\.g\. --base https:\/\/example\.org\/mcp-lab\//);
  });

  it('--inputs with every deciding answer gives production-ready; --html the page', async () => {
    const md = await run(['--inputs', 'in.json'], { 'in.json': JSON.stringify(GOOD) });
    expect(md.code).toBe(0);
    expect(md.stdout.split('## Verdict')[1].trim().startsWith('**production-ready**')).toBe(true);
    const html = await run(['--inputs', 'in.json', '--html'], { 'in.json': JSON.stringify(GOOD) });
    expect(html.code).toBe(0);
    expect(html.stdout.startsWith('<!doctype html>')).toBe(true);
    expect(html.stdout).toContain('<strong>production-ready</strong>');
  });

  it('--inputs carries evidence: named built-in runs with overrides', async () => {
    const inputs = { ...GOOD, retry: { ...GOOD.retry, policy: 'timeout-only' }, evidence: { runs: [{ lab: 'ledger', scenario: 'B-race-interleaved' }] } };
    const r = await run(['--inputs', 'in.json'], { 'in.json': JSON.stringify(inputs) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\| 11 \| two ledger connections racing on one key \| failed \|/);
    expect(r.stdout).toMatch(/\| 1 \| stdio cancel before completion \| not run \|/);
    expect(r.stdout).toContain('- `retry-on-timeout-only`: ');
  });

  it('--transcript imports a sample transcript and reports its findings; --redact hashes its arguments', async () => {
    const r = await run(['--transcript', 'public/transcripts/jsonrpc-jsonl/jsonrpc-fifty-timeouts-no-cancel.jsonl', '--redact']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('## Imported transcript: findings');
    expect(r.stdout).toContain('timeout-without-cancel');
    expect(r.stdout).toContain('arguments and results in quoted messages are hashed');
    expect(r.stdout).not.toContain('User closed the dialog');
  });

  it('exit 1 for unreadable input, naming the file or the field', async () => {
    expect(await run(['--inputs', 'missing.json'])).toMatchObject({ code: 1, stdout: '' });
    const bad = await run(['--inputs', 'in.json'], { 'in.json': '{"retry":{"policy":"sometimes"}}' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('inputs.retry.policy');
    const typo = await run(['--inputs', 'in.json'], { 'in.json': '{"retries":{}}' });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/retries/);
    const notJson = await run(['--inputs', 'in.json'], { 'in.json': '{' });
    expect(notJson.stderr).toMatch(/^error: in\.json: cannot read it as JSON/);
    const noScenario = await run(['--inputs', 'in.json'], { 'in.json': '{"evidence":{"runs":[{"lab":"races","scenario":"Z"}]}}' });
    expect(noScenario.code).toBe(1);
    expect(noScenario.stderr).toContain('evidence.runs[0].scenario: no built-in races scenario "Z"');
    const empty = await run(['--transcript', 't.log'], { 't.log': 'hello\nworld\n' });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^error: t\.log: /);
  });

  it('exit 2 for a bad command line', async () => {
    const r = await run(['--pdf']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('usage: review');
    expect((await run(['--inputs'])).code).toBe(2);
  });
});
