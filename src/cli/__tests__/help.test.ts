import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, runCli } from '../main';

/** Runs the CLI and collects what it wrote on stdout and stderr. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const code = await runCli(argv);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

describe('mcp-lab --help (walkthrough: it answered "unknown option")', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([['--help'], ['-h'], ['help']])('%s prints every subcommand with its options on stdout and exits 0', async (flag) => {
    const r = await run([flag]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: mcp-lab <command> \[options\]/);
    for (const name of ['replay', 'explore', 'check', 'chaos', 'review']) expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    for (const option of ['--config JSON', '--trace OUT.json', '--events a,b,c', '--seeds N', '--first-seed S', '--allowance-ms N', '--format F', '--redact']) expect(r.stdout).toContain(option);
  });

  it.each([
    [['help', 'replay']],
    [['replay', '--help']],
    [['replay', '-h']],
    [['replay', 'public/scenarios/races/A.json', '--help']],
  ])('%j prints the replay usage and its options, exit 0, without running it', async (argv) => {
    const r = await run(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: mcp-lab replay FILE\.json \[--config JSON\] \[--expect\] \[--trace OUT\.json\]/);
    expect(r.stdout).toMatch(/^ {4}--expect {10}also check the file's `expect` blocks; exit 3 when one is not met$/m);
    expect(r.stdout).not.toContain('unknown option');
    expect(r.stdout).not.toContain('chaos FILE.json');
  });

  it('every command has help for each option its usage line names', async () => {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const r = await run(['help', name]);
      expect(r.code).toBe(0);
      const named = [...command.summary.split(' — ')[0].matchAll(/\[(--[a-z-]+)/g)].map((m) => m[1]);
      expect(named.length).toBeGreaterThan(0);
      for (const flag of named) expect(r.stdout).toMatch(new RegExp(`^ {4}${flag}\\b`, 'm'));
    }
  });

  it('help for an unknown command, or an unknown command, says which exist and exits 2', async () => {
    const a = await run(['help', 'replya']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^help: no command is called "replya" — use one of replay, check, review, chaos, explore, serve, probe, proxy\n/);
    const b = await run(['replya']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/^unknown command "replya" — use one of /);
  });
});
