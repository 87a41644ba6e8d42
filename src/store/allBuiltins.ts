import { LAB_IDS, type LabId } from '../sim/labIds';
import { labContract } from '../sim/labs';
import type { Scenario } from '../sim/types';
import { loadBuiltins } from './builtins';

const files = import.meta.glob('/public/scenarios/*/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

/**
 * Every lab's built-in scenarios, by lab id, each parsed by its lab's contract (the review report's
 * links and reference runs look them up by id). Found by glob, so a new lab's files are here with no
 * edit; a lazy chunk of its own (the Traffic page's "Export review" loads it on demand).
 */
export function allBuiltins(): { [L in LabId]: Scenario[] } {
  const byLab = new Map<string, Record<string, unknown>>(LAB_IDS.map((lab) => [lab, {}]));
  for (const [path, value] of Object.entries(files)) {
    const folder = byLab.get(path.split('/').at(-2) ?? '');
    if (folder) folder[path] = value;
  }
  return Object.fromEntries(LAB_IDS.map((lab) => [lab, loadBuiltins(byLab.get(lab) ?? {}, labContract(lab).parse).scenarios])) as { [L in LabId]: Scenario[] };
}
