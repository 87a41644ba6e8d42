/**
 * The `replay` command's quick parse of a scenario file: the same parsed scenario as
 * `parseAnyScenarioTextWith` (src/sim/scenario.ts), without running zod over every event. A big
 * file is mostly events (10,000 in the bench file), and zod's per-event work was about a quarter
 * of the CLI's CPU; here each event is checked by a validator precompiled from the lab's own JSON
 * Schema (zod's export of the same event schema, `./scenarioValidators`) and then rebuilt the way
 * zod builds it (the schema's key order, defaults filled in). The envelope (config, expect, the
 * other fields) still goes through zod, with no events.
 *
 * Only the happy path is quick: whenever anything is in doubt (an event the validator rejects, a
 * duplicate id, an envelope zod rejects, an event kind whose fields are not plain values) the
 * whole file goes through zod as before, so every error message stays exactly as it was.
 */
import type * as z from 'zod';
import { isLabId, type LabId } from '../sim/labIds';
import { parseAnyScenarioTextWith, SCENARIO_LIMITS, scenarioSchema, type LabSchemas, type ParseResult } from '../sim/scenario';
import type { Scenario } from '../sim/types';
import { eventValidator } from './scenarioValidators';

/** zod's internals as far as the plan reads them (zod 4: `schema._zod.def`, `optin`/`optout`). */
interface Internals {
  def: {
    type: string;
    checks?: { _zod: { def: { check: string; format?: string; pattern?: RegExp } } }[];
    coerce?: boolean;
    innerType?: z.ZodType;
    options?: readonly z.ZodType[];
    shape?: Record<string, z.ZodType>;
    discriminator?: string;
    values?: readonly unknown[];
    entries?: Record<string, unknown>;
    defaultValue?: unknown;
  };
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
}
const internals = (schema: z.ZodType): Internals => (schema as unknown as { _zod: Internals })._zod;

/** How one field of an event is rebuilt: its key, and what an absent key gives (`omit`, zod's default, or `required`: not quick). */
interface FieldPlan {
  key: string;
  absent: 'omit' | 'required' | Internals['def'];
}

/** One event rebuilt as zod would parse it, or undefined when a required field is absent (`compileRebuild`). */
type Rebuild = (event: Record<string, unknown>) => Record<string, unknown> | undefined;

/** Per event kind, its rebuild (its fields in the schema's order); null for a kind that is not quick (zod parses those events). */
type EventPlan = Map<unknown, Rebuild | null>;

/** Check kinds that zod's JSON Schema export states exactly (lengths, a flagless regex, integer and range bounds). */
const PLAIN_CHECKS = new Set(['min_length', 'max_length', 'length_equals', 'number_format', 'greater_than', 'less_than']);

/** Whether zod returns a present value of `schema` unchanged (no transform, no coercion, no refinement the JSON Schema cannot state). */
function isPlainValue(schema: z.ZodType): boolean {
  const { def } = internals(schema);
  if (def.coerce) return false;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (!PLAIN_CHECKS.has(c.check) && !(c.check === 'string_format' && c.format === 'regex' && c.pattern?.flags === '')) return false;
  }
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'null':
    case 'unknown':
    case 'any':
      return true;
    case 'nullable':
    case 'optional':
    case 'default':
      return isPlainValue(def.innerType!);
    case 'union':
      return def.discriminator === undefined && def.options!.every(isPlainValue);
    default:
      return false;
  }
}

/** One event object's field plans, or null when one of its fields is not a plain value. */
function objectPlan(shape: Record<string, z.ZodType>): FieldPlan[] | null {
  const fields: FieldPlan[] = [];
  for (const key of Object.keys(shape)) {
    const field = internals(shape[key]);
    if (!isPlainValue(shape[key]) || key === '__proto__') return null;
    // zod's handlePropertyResult: an absent optional-in/optional-out key is left out; a default fills it; any other absence is an error.
    if (field.optin === 'optional' && field.optout === 'optional') fields.push({ key, absent: 'omit' });
    else if (field.def.type === 'default' && field.optin === 'defaulted') fields.push({ key, absent: field.def });
    else fields.push({ key, absent: 'required' });
  }
  return fields;
}

const plans = new WeakMap<z.ZodType, EventPlan | null>();
/** The plan of a lab's event schema (a strict discriminated union on `kind`), or null when it is not one. */
function eventPlan(event: z.ZodType): EventPlan | null {
  if (plans.has(event)) return plans.get(event)!;
  const { def } = internals(event);
  let plan: EventPlan | null = null;
  if (def.type === 'union' && def.discriminator === 'kind') {
    plan = new Map();
    for (const option of def.options!) {
      const o = internals(option).def;
      const kind = o.shape ? internals(o.shape.kind).def : undefined;
      const kinds = kind?.type === 'literal' ? kind.values! : kind?.type === 'enum' ? Object.values(kind.entries!) : undefined;
      if (o.type !== 'object' || !kinds) {
        plan = null;
        break;
      }
      const fields = objectPlan(o.shape!);
      const rebuildKind = fields && compileRebuild(fields);
      for (const k of kinds) plan.set(k, rebuildKind);
    }
  }
  plans.set(event, plan);
  return plan;
}

/**
 * The rebuild of one event kind: `event` rebuilt as zod would parse it (its `fields` in order,
 * defaults filled), or undefined when a required field is absent. Compiled to one function of
 * plain property reads and writes per kind: the generic loop over `fields` (`out[key] =
 * event[key]` with the key in a variable) made every read and write a megamorphic keyed access
 * (on the 10k-event file: the quick parse's CPU 45 -> 39 ms, the whole command 5 % fewer
 * instructions). Keys are quoted with
 * `JSON.stringify` (a JSON string is a JavaScript string literal); `objectPlan` never gives `__proto__`.
 */
function compileRebuild(fields: FieldPlan[]): Rebuild {
  const defaults: Internals['def'][] = [];
  const lines = fields.map(({ key, absent }) => {
    const k = JSON.stringify(key);
    if (absent === 'required') return `if (${k} in e) o[${k}] = e[${k}]; else return undefined;`;
    if (absent === 'omit') return `if (${k} in e) o[${k}] = e[${k}];`;
    defaults.push(absent);
    // zod reads the default afresh for every parse (a getter that copies an object default)
    return `if (${k} in e) o[${k}] = e[${k}]; else { const v = d[${defaults.length - 1}].defaultValue; if (v === undefined) return undefined; o[${k}] = v; }`;
  });
  const body = `return (e) => { const o = {}; ${lines.join(' ')} return o; };`;
  return new Function('d', body)(defaults) as Rebuild;
}

/**
 * The scenario `value` (already parsed JSON whose `lab` is `lab`) parsed the quick way, or
 * undefined when the caller must run zod (`parseScenario`), which then gives the same result or
 * the exact errors. A returned scenario equals zod's: same values, same key order, same defaults.
 */
export function parseScenarioQuick(value: unknown, lab: LabId, schemas: LabSchemas): ParseResult | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const events = (value as { events?: unknown }).events;
  if (!Array.isArray(events) || events.length > SCENARIO_LIMITS.maxEvents) return undefined;
  const plan = eventPlan(schemas.event);
  if (!plan) return undefined;
  const valid = eventValidator(lab, schemas);
  const seen = new Set<unknown>();
  const parsed: unknown[] = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as Record<string, unknown>;
    if (event === null || typeof event !== 'object' || !valid(event)) return undefined;
    if (seen.has(event.id)) return undefined; // a duplicate id: zod's superRefine words it
    seen.add(event.id);
    const rebuild = plan.get(event.kind);
    if (rebuild === undefined) return undefined;
    let out: unknown;
    if (rebuild === null) {
      const r = schemas.event.safeParse(event);
      if (!r.success) return undefined;
      out = r.data;
    } else {
      out = rebuild(event);
      if (out === undefined) return undefined;
    }
    parsed[i] = out;
  }
  const envelope = scenarioSchema(lab, schemas).safeParse({ ...value, events: [] });
  if (!envelope.success) return undefined;
  const scenario = envelope.data as unknown as Scenario;
  (scenario as { events: unknown[] }).events = parsed;
  return { ok: true, scenario };
}

/**
 * `parseAnyScenarioTextWith(text, schemasOf, parseJson)` (same result, same errors), taking the
 * quick path (`parseScenarioQuick`) when it can. `parseJson` is called at most twice on `text`;
 * give one that remembers its last result.
 */
export function parseAnyScenarioTextQuick(text: string, schemasOf: (lab: LabId) => LabSchemas, parseJson: (text: string) => unknown = JSON.parse): ParseResult & { lab?: LabId } {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    value = undefined;
  }
  const lab = value !== null && typeof value === 'object' ? (value as { lab?: unknown }).lab : undefined;
  if (isLabId(lab)) {
    const quick = parseScenarioQuick(value, lab, schemasOf(lab));
    if (quick) return { ...quick, lab };
  }
  return parseAnyScenarioTextWith(text, schemasOf, parseJson);
}
