/** `tsx src/cli/check-main.ts FILE …` — a runnable stand-in until `checkCommand` is plugged into the one CLI entry. */
import { checkCommand } from './check';

process.exitCode = await checkCommand(process.argv.slice(2));
