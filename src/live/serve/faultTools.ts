/**
 * The names and descriptions of `serve`'s fault tools, from the one fault vocabulary. Pure data
 * (no SDK), so `--help` and other helpers (probe, proxy) read them without loading a server.
 */
import { LIVE_FAULT_NAMES, LIVE_FAULTS, type LiveFaultName } from '../../sim/faultVocabulary';

/** The tool that triggers one fault: `fault_` + the fault's name with `_` for `-` (e.g. `fault_ignore_cancel`). */
export function faultToolName(fault: LiveFaultName): string {
  return `fault_${fault.replace(/-/g, '_')}`;
}

/** Every fault tool's name, by fault (the one place probe and proxy read them from). */
export const FAULT_TOOL_NAMES: Readonly<Record<LiveFaultName, string>> = Object.fromEntries(LIVE_FAULT_NAMES.map((f) => [f, faultToolName(f)])) as Record<LiveFaultName, string>;

/** A fault's tool description: what it does, what a correct client does, and the built-in scenario that teaches it. */
export function faultToolDescription(fault: LiveFaultName): string {
  const f = LIVE_FAULTS[fault];
  const lesson = f.lesson ? ` Taught by the ${f.lesson.lab} lab's scenario ${f.lesson.scenario} (invariant ${f.lesson.invariant}).` : ' No built-in scenario teaches it yet.';
  const only = f.transports.length === 1 ? ` Acts on ${f.transports[0] === 'http' ? 'Streamable HTTP' : 'stdio'} only.` : '';
  return `Fault ${fault}: the server ${f.does}. A correct client should ${f.clientShould}.${only}${lesson}`;
}
