import type { ParseResult } from '../sim/scenario';
import type { Scenario } from '../sim/types';

/** Built-in scenarios of a lab, validated; an invalid file is reported (`file → field: problem`), never shown. */
export interface BuiltinLoad {
  scenarios: Scenario[];
  errors: string[];
}

/**
 * The one built-in loader: `files` is a lab's `import.meta.glob('/public/scenarios/<lab>/*.json',
 * { eager: true, import: 'default' })` (Vite bundles the files at build time; `public/scenarios`
 * stays the single source). Files sort by `prefixOrder` of their first letter when given (letters
 * not listed go last), then by name with numbers compared numerically (A, B, … F1, F2, … F10, L).
 */
export function loadBuiltins(files: Record<string, unknown>, parse: (value: unknown) => ParseResult, prefixOrder: readonly string[] = []): BuiltinLoad {
  const rank = (p: string) => {
    const r = prefixOrder.indexOf((p.split('/').pop() ?? '')[0]);
    return r < 0 ? prefixOrder.length : r;
  };
  const scenarios: Scenario[] = [];
  const errors: string[] = [];
  for (const path of Object.keys(files).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }))) {
    const parsed = parse(files[path]);
    const name = path.split('/').pop() ?? path;
    if (parsed.ok) scenarios.push(parsed.scenario);
    else errors.push(...parsed.errors.map((e) => `${name} → ${e}`));
  }
  return { scenarios, errors };
}
