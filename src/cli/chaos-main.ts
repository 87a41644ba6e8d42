/** Entry point of `npm run chaos` (runs `chaosCommand` on the process's arguments; see chaos.ts). */
import { chaosCommand } from './chaos';

process.exitCode = await chaosCommand(process.argv.slice(2));
