import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import type { Scenario } from '../sim/types';

/**
 * The resilience lab's built-in scenarios: `public/scenarios/resilience/*.json`, bundled by Vite at
 * build time and validated with `parseScenario`; an invalid file is reported, never shown.
 * Order: tasks (T…), breaker (B…), storm (S…).
 */
const files = import.meta.glob('/public/scenarios/resilience/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;
const ORDER = ['T', 'B', 'S'];

let cached: { scenarios: Scenario[]; errors: string[] } | null = null;

/** Every built-in resilience scenario (cached), with the problems of any invalid file. */
export function builtinResilience(): { scenarios: Scenario[]; errors: string[] } {
  if (cached) return cached;
  const scenarios: Scenario[] = [];
  const errors: string[] = [];
  const rank = (p: string) => ORDER.indexOf((p.split('/').pop() ?? '')[0]);
  for (const path of Object.keys(files).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }))) {
    const parsed = parseScenario(files[path], 'resilience', LAB_SCHEMAS.resilience);
    const name = path.split('/').pop() ?? path;
    if (parsed.ok) scenarios.push(parsed.scenario);
    else errors.push(...parsed.errors.map((e) => `${name} → ${e}`));
  }
  cached = { scenarios, errors };
  return cached;
}
