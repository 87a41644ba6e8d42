/**
 * The bundled command line's entry (`scripts/build-cli.mjs` → `dist-cli/mcp-lab.mjs`, the `mcp-lab`
 * bin of package.json): runs `runCli` on the process arguments and exits with its code. (The build
 * swaps `src/wire/schemaValidators.ts` for the MCP schema validators compiled ahead of time, so
 * startup does not compile the schemas.)
 */
import { runCli } from './main';

// A reader that stops early (`| head`) closes the pipe: stop quietly with success, as Unix tools do.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

process.exitCode = await runCli(process.argv.slice(2));
