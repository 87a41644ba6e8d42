/**
 * The bundled command line's entry (`scripts/build-cli.mjs` → `dist-cli/mcp-lab.mjs`, the `mcp-lab`
 * bin of package.json): installs the MCP schema validators compiled at build time (so startup does
 * not compile the schemas), then runs `runCli` on the process arguments and exits with its code.
 */
import { PRECOMPILED } from 'mcp-lab:validators';
import { installPrecompiledValidators } from '../wire/schemaCheck';
import { runCli } from './main';

installPrecompiledValidators(PRECOMPILED);
process.exitCode = await runCli(process.argv.slice(2));
