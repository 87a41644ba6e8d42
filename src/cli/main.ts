/**
 * The lab's one command line: `tsx src/cli/main.ts <command> …` (`npm run replay -- FILE` runs
 * `main.ts replay FILE`). Commands are registered by name in `COMMANDS`; each takes its argv and
 * resolves to the exit code. To add one (e.g. `check`): export `checkCommand(argv: string[]):
 * Promise<number>` from its module and add `check: { summary, run: async (argv) => (await import('./check')).checkCommand(argv) }` below.
 */

/** A subcommand: one line of help and its runner (argv after the command name → exit code). */
export interface CliCommand {
  summary: string;
  run(argv: string[]): Promise<number>;
}

/**
 * Every subcommand, by name. Each command's module is imported when it runs, so the bundle's
 * `replay` never parses the transcript checker, the report or sql.js (startup time, issue 10).
 */
export const COMMANDS: Record<string, CliCommand> = {
  replay: { summary: 'replay FILE.json [--config JSON] [--expect] — replay a scenario of any lab and print its outcome as JSON', run: async (argv) => (await import('./replay')).replayCommand(argv) },
  check: { summary: 'check FILE [--text] [--allowance-ms N] [--max-ms N] [--revision R] [--format F] — import a recorded MCP transcript and check it against the rules the labs teach (exit 3 when a rule is broken)', run: async (argv) => (await import('./check')).checkCommand(argv) },
  review: { summary: 'review [--inputs FILE.json] [--transcript FILE] [--html] [--redact] — the reliability review report (Markdown, or print-friendly HTML) from lab runs and/or a transcript', run: async (argv) => (await import('./review')).reviewCommand(argv) },
  chaos: { summary: 'chaos FILE.json [--seeds N] [--first-seed S] [--json] [--expect] — run a scenario under seeded faults and check its safety invariants on every seed (exit 3 when one breaks)', run: async (argv) => (await import('./chaos')).chaosCommand(argv) },
  explore: { summary: 'explore FILE.json [--events a,b,c] — replay every order of some events and group the outcomes', run: async (argv) => (await import('./explore')).exploreCommand(argv) },
};

/** Dispatches `argv` (without node and script) to its subcommand; unknown or missing → usage, exit 2. */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    process.stderr.write(`${name === undefined ? '' : `unknown command ${name}\n`}usage: mcp-lab <command> …\n${Object.entries(COMMANDS).map(([n, c]) => `  ${c.summary.startsWith(n) ? c.summary : `${n}: ${c.summary}`}`).join('\n')}\n`);
    return 2;
  }
  return command.run(rest);
}

const isEntry = typeof process !== 'undefined' && process.argv[1] !== undefined && /cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry) process.exitCode = await runCli(process.argv.slice(2));
