import * as z from 'zod';
import schema from './schema.json' with { type: 'json' };
import type { Json } from '../../sim/types';
import { partOf, type ExtTasksDef, type TaskWireCheckPlan } from '../../sim/resilience/taskWireSchema';

export type { ExtTasksDef };

/**
 * The official JSON Schema of the MCP Tasks extension (`io.modelcontextprotocol/tasks`), vendored
 * unchanged from modelcontextprotocol/ext-tasks `schema/draft/schema.json` at commit e434597
 * (Apache-2.0; see README.md and LICENSE beside this file), turned into validators with zod's
 * `z.fromJSONSchema` — no code generation at run time, so it also runs in the browser under the
 * lab's Content-Security-Policy (no `unsafe-eval`). A test checks these validators agree with ajv on
 * every message the lab emits and on hand-made invalid ones.
 */

/** Where the schema comes from (shown next to each message it checks). */
export const EXT_TASKS_SCHEMA_SOURCE = {
  repository: 'modelcontextprotocol/ext-tasks',
  path: 'schema/draft/schema.json',
  commit: 'e4345978be1f602f1fc48d89051e8559dd5302a6',
  license: 'Apache-2.0',
  id: 'https://modelcontextprotocol.io/ext-tasks/schema.json',
} as const;

/** The raw schema document (draft 2020-12), for ajv in Node tests. */
export const EXT_TASKS_SCHEMA: object = schema;

const validators = new Map<ExtTasksDef, z.ZodType>();

function validator(def: ExtTasksDef): z.ZodType {
  let v = validators.get(def);
  if (!v) {
    const defs = (schema as { $defs: Record<string, unknown> }).$defs;
    if (!(def in defs)) throw new Error(`ext-tasks schema has no $defs/${def}`);
    v = z.fromJSONSchema({ ...(schema as object), $ref: `#/$defs/${def}` } as Parameters<typeof z.fromJSONSchema>[0]);
    validators.set(def, v);
  }
  return v;
}

/**
 * Validates `value` against `$defs/<def>` of the extension schema. Returns "def path: problem"
 * lines, empty when valid. Throws when `def` is not in the schema.
 */
export function checkExtTasks(def: ExtTasksDef, value: unknown): string[] {
  const r = validator(def).safeParse(value);
  if (r.success) return [];
  return r.error.issues.map((i) => `${def}${i.path.length ? ' ' + i.path.map(String).join('.') : ''}: ${i.message}`);
}

/**
 * Validates `message` against the extension `$defs` its plan names; returns "def path: problem"
 * lines (empty when valid, and when the plan names no extension schema).
 */
export function checkTaskExtSchema(plan: TaskWireCheckPlan, message: Json): string[] {
  return plan.ext.flatMap(({ def, part }) => checkExtTasks(def, partOf(message, part)).map((e) => (part === 'message' ? e : `${part}: ${e}`)));
}
