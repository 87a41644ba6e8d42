/**
 * The lab's one command line: `tsx src/cli/main.ts <command> …` (`npm run replay -- FILE` runs
 * `main.ts replay FILE`). Commands are registered by name in `COMMANDS`; each takes its argv and
 * resolves to the exit code. To add one (e.g. `check`): export `checkCommand(argv: string[]):
 * Promise<number>` from its module and add `check: { summary, run: async (argv) => (await import('./check')).checkCommand(argv) }` below.
 */

import { SERVE_OPTIONS } from '../live/serve/help';

/**
 * A subcommand: one line of help, its options for `--help` (each `[flag, what it does]`, the
 * operand first), and its runner (argv after the command name → exit code).
 */
export interface CliCommand {
  summary: string;
  options: ReadonlyArray<readonly [string, string]>;
  run(argv: string[]): Promise<number>;
}

/**
 * Every subcommand, by name. Each command's module is imported when it runs, so the bundle's
 * `replay` never parses the transcript checker, the report or sql.js (startup time, issue 10).
 */
export const COMMANDS: Record<string, CliCommand> = {
  replay: {
    summary: 'replay FILE.json [--config JSON] [--expect] [--trace OUT.json] — replay a scenario of any lab and print its outcome as JSON',
    options: [
      ['FILE.json', 'a scenario file of any lab (public/scenarios/<lab>/…); its `lab` field picks the lab'],
      ['--config JSON', 'config overrides merged into the file\'s config, e.g. \'{"transport":"stdio"}\''],
      ['--expect', 'also check the file\'s `expect` blocks; exit 3 when one is not met'],
      ['--trace OUT.json', 'also write the per-step trace (index, at, entry, rule, effects, violations) to OUT.json'],
    ],
    run: async (argv) => (await import('./replayCommand')).replayCommand(argv),
  },
  check: {
    summary: 'check FILE [--text] [--allowance-ms N] [--max-ms N] [--revision R] [--format F] — import a recorded MCP transcript and check it against the rules the labs teach (exit 3 when a rule is broken)',
    options: [
      ['FILE', 'a transcript: Claude Desktop log, MCP Inspector v2 export, JSON-RPC JSONL or capture envelope JSONL (auto-detected)'],
      ['--text', 'a short human summary instead of the JSON report'],
      ['--allowance-ms N', 'latency allowed between the two peers in timing checks (default 1000)'],
      ['--max-ms N', 'flag requests that lived longer than N ms (default: no limit)'],
      ['--revision R', 'the MCP revision to judge by: 2026-07-28 or 2025-11-25 (default: read from the transcript)'],
      ['--format F', 'skip detection: claude-desktop-log, inspector-v2, jsonrpc-jsonl or capture-jsonl'],
    ],
    run: async (argv) => (await import('./check')).checkCommand(argv),
  },
  review: {
    summary: 'review [--inputs FILE.json] [--transcript FILE] [--html] [--redact] — the reliability review report (Markdown, or print-friendly HTML) from lab runs and/or a transcript',
    options: [
      ['--inputs FILE.json', 'the reviewer\'s inputs and optional evidence (runs, practice checks); default: the lesson\'s runs'],
      ['--transcript FILE', 'a transcript in any of the four formats, checked into the report'],
      ['--html', 'a print-friendly HTML page instead of Markdown'],
      ['--redact', 'hash arguments and results in every quoted wire message'],
    ],
    run: async (argv) => (await import('./review')).reviewCommand(argv),
  },
  chaos: {
    summary: 'chaos FILE.json [--seeds N] [--first-seed S] [--json] [--expect] — run a scenario under seeded faults and check its safety invariants on every seed (exit 3 when one breaks)',
    options: [
      ['FILE.json', 'a scenario file of any lab'],
      ['--seeds N', 'how many seeded runs (default 1000)'],
      ['--first-seed S', 'the first seed (default 0)'],
      ['--json', 'one JSON document instead of one line per failing seed'],
      ['--expect', 'also run every `expect` block\'s config overrides of the file'],
    ],
    run: async (argv) => (await import('./chaos')).chaosCommand(argv),
  },
  explore: {
    summary: 'explore FILE.json [--events a,b,c] — replay every order of some events and group the outcomes',
    options: [
      ['FILE.json', 'a scenario file of any lab'],
      ['--events a,b,c', '1 to 8 event ids of the file to permute (default: the lab\'s natural set); exit 3 when some order breaks an invariant'],
    ],
    run: async (argv) => (await import('./explore')).exploreCommand(argv),
  },
  serve: {
    summary: 'serve [--http HOST:PORT] [--fault NAME[,NAME…]] [--chaos SEED] [--scenario FILE] [--record FILE] [--tools SET] — a real MCP server (SDK v2) that misbehaves on purpose; stdio by default',
    options: SERVE_OPTIONS,
    run: async (argv) => (await import('../live/serve/command')).serveCommand(argv),
  },
  probe: {
    summary: 'probe (--command "CMD ARGS…" | --url http://HOST:PORT/mcp) [--tool NAME] [--args JSON] [--revision R] [--json] [--checks-json FILE] [--record FILE] [--window-ms N] — test your MCP server with a real SDK v2 client: cancels, progress, survival (exit 3 when a rule is broken, 1 when it cannot connect, 2 for a bad option)',
    options: [
      ['--command "CMD ARGS…"', 'spawn the server and speak stdio to it (no shell; quotes group words)'],
      ['--url URL', 'a Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp'],
      ['--tool NAME', 'a long-running tool to call, cancel and call again (the cancel probes); without it only the safe probes run'],
      ['--args JSON', 'the tool\'s arguments, a JSON object (make it run a few seconds and report progress)'],
      ['--revision R', '2026-07-28 or 2025-11-25: the revision to negotiate (default: whatever the SDK negotiates); another one is exit 1'],
      ['--json', 'one JSON document (findings in check\'s shape, with verdict and evidence) instead of the summary'],
      ['--checks-json FILE', 'also write the findings as the official conformance suite\'s checks.json'],
      ['--record FILE', 'record the probe\'s own session (capture envelope JSONL: open it in the Traffic page, or mcp-lab check it)'],
      ['--timeout-ms N', 'bound on the handshake (default 10000); requests are bounded by max(N, 30000)'],
      ['--window-ms N', 'how long to listen after a cancel for anything late (default 2000, at least 3× the progress interval; 100–600000)'],
    ],
    run: async (argv) => (await import('../live/probe/command')).probeCommand(argv),
  },
  proxy: {
    summary: 'proxy [--record FILE] [--check] [--fault NAME] -- SERVER_CMD ARGS… | proxy --listen HOST:PORT --upstream URL [--record FILE] [--check] [--fault NAME] — sit between a real client and server and record what passed (stdio: bytes unchanged; HTTP: SSE streamed through)',
    options: [
      ['-- SERVER_CMD ARGS…', 'stdio: the server to spawn; give `mcp-lab proxy -- CMD ARGS…` to your host as the server command'],
      ['--listen HOST:PORT', 'Streamable HTTP: where the proxy listens (127.0.0.1:0 picks a port; the address is printed on stderr)'],
      ['--upstream URL', 'Streamable HTTP: the server\'s MCP endpoint; every request goes there'],
      ['--record FILE', 'the session in the capture envelope (JSONL; HTTP status and headers, stream open/close, fault marks, exit) — open it in the Traffic page or mcp-lab check it'],
      ['--check', 'print check\'s findings on stderr as they happen (same rules as mcp-lab check)'],
      ['--fault NAME[,NAME]', 'a client-side what-if, from the one fault vocabulary. stdio: ignore-cancel (drop), late-result (delay), duplicate-response (duplicate), response-for-unknown-id, no-progress (drop), progress-after-result, crash-on-cancel (cut); HTTP: ignore-cancel, stream-cut (cut). The others are server behaviour: mcp-lab serve'],
      ['--fault-delay-ms N', 'how long late-result holds a response (default 75000)'],
    ],
    run: async (argv) => (await import('../live/proxy/command')).proxyCommand(argv),
  },
};

const HELP_FLAGS = new Set(['--help', '-h']);

/** The help of one command: its summary line, then one line per option. */
function commandHelp(name: string, command: CliCommand): string {
  const width = Math.max(...command.options.map(([flag]) => flag.length));
  return `usage: mcp-lab ${command.summary}\n${command.options.map(([flag, what]) => `    ${flag.padEnd(width)}  ${what}`).join('\n')}\n(npm run ${name} -- … runs the same command)\n`;
}

/** The whole help: every command with its options. */
function usage(): string {
  return `usage: mcp-lab <command> [options]   (mcp-lab help <command>, or <command> --help, for one command)\n\ncommands:\n${Object.entries(COMMANDS)
    .map(([name, c]) => commandHelp(name, c).replace(/^usage: mcp-lab /, '  ').replace(/\n\(npm run [^\n]*\n$/, '\n'))
    .join('\n')}\nExit codes: 0 done; 1 bad input (the message names the field); 2 bad command line; 3 a rule, expectation or invariant broken.\n`;
}


/**
 * Dispatches `argv` (without node and script) to its subcommand. `--help`, `-h` or `help` (alone,
 * or with a command: `help replay`, `replay --help`) print the usage on stdout and exit 0;
 * an unknown or missing command prints it on stderr and exits 2.
 */
export async function runCli(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === 'help' || (name !== undefined && HELP_FLAGS.has(name))) {
    const topic = rest[0];
    if (topic === undefined || HELP_FLAGS.has(topic)) {
      process.stdout.write(usage());
      return 0;
    }
    const command = COMMANDS[topic];
    if (!command) {
      process.stderr.write(`help: no command is called ${JSON.stringify(topic)} — use one of ${Object.keys(COMMANDS).join(', ')}\n${usage()}`);
      return 2;
    }
    process.stdout.write(commandHelp(topic, command));
    return 0;
  }
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    process.stderr.write(`${name === undefined ? '' : `unknown command ${JSON.stringify(name)} — use one of ${Object.keys(COMMANDS).join(', ')}\n`}${usage()}`);
    return 2;
  }
  // After `--` the words are another program's (proxy's server command): its --help is not ours.
  const dash = rest.indexOf('--');
  if ((dash < 0 ? rest : rest.slice(0, dash)).some((a) => HELP_FLAGS.has(a))) {
    process.stdout.write(commandHelp(name as string, command));
    return 0;
  }
  return command.run(rest);
}

const isEntry = typeof process !== 'undefined' && process.argv[1] !== undefined && /cli[\\/]main\.ts$/.test(process.argv[1]);
if (isEntry) process.exitCode = await runCli(process.argv.slice(2));
