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

const code = await runCli(process.argv.slice(2));
process.exitCode = code;
// Everything printed is with the OS (stdout and stderr write synchronously to files, pipes and terminals on Linux): exit now
// instead of letting Node tear the heap down (the 10k-event replay's ~30 MB; about 2 % of that command's instructions).
// Output still queued (an asynchronous pipe elsewhere) or a closed stream (EPIPE, handled above) takes the ordinary way out.
if (flushed(process.stdout) && flushed(process.stderr)) process.exit(code);

/** Whether `stream` holds no unwritten output and has not failed. */
function flushed(stream: NodeJS.WriteStream): boolean {
  return stream.writableLength === 0 && !stream.destroyed;
}
