import { resilienceDefinition } from '../sim/resilience/definition';
import { loadBuiltins, type BuiltinLoad } from './builtins';

const files = import.meta.glob('/public/scenarios/resilience/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

let cached: BuiltinLoad | null = null;

/** Every built-in resilience scenario (cached): tasks (T), then breakers (B), then storms (S). */
export function builtinResilience(): BuiltinLoad {
  cached ??= loadBuiltins(files, resilienceDefinition.parse, ['T', 'B', 'S']);
  return cached;
}
