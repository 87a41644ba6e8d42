import * as z from 'zod';
import type { Scenario } from './types';
import { isLabId, LAB_IDS, labFieldProblem, type LabId } from './labIds';

/** What a lab contributes to scenario validation: its config and event schemas. */
export interface LabSchemas {
  config: z.ZodType;
  event: z.ZodType;
}

/** The scenario format version this code reads and writes. */
export const SCENARIO_FORMAT = 1 as const;

/** Limits that keep a scenario from freezing the page or the CLI. */
export const SCENARIO_LIMITS = { maxEvents: 200_000 } as const;

const expectationSchema = z
  .object({
    label: z.string().min(1),
    overrides: z.record(z.string(), z.unknown()).optional(),
    requests: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    summary: z.record(z.string(), z.unknown()).optional(),
    violates: z.array(z.string()).optional(),
    at: z.array(z.object({ atMs: z.number().int().min(0), request: z.string(), state: z.string() }).strict()).optional(),
  })
  .strict();

const envelopes = new WeakMap<LabSchemas, Map<string, ReturnType<typeof buildScenarioSchema>>>();

/**
 * The envelope every scenario shares; `config` and `events` are checked by the lab's schemas. Built
 * once per (lab, schemas) and kept: zod compiles an object schema on its first parse, which cost
 * the chaos swarm most of each seed's time when the schema was rebuilt for every parse.
 */
export function scenarioSchema(lab: string, schemas: LabSchemas): ReturnType<typeof buildScenarioSchema> {
  let byLab = envelopes.get(schemas);
  if (!byLab) envelopes.set(schemas, (byLab = new Map()));
  let schema = byLab.get(lab);
  if (!schema) byLab.set(lab, (schema = buildScenarioSchema(lab, schemas)));
  return schema;
}

function buildScenarioSchema(lab: string, schemas: LabSchemas) {
  return z
    .object({
      $schema: z.string().optional(),
      format: z.literal(SCENARIO_FORMAT, { error: `must be ${SCENARIO_FORMAT} (the scenario format version)` }),
      lab: z.literal(lab, { error: `must be "${lab}"` }),
      id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit'),
      title: z.string().min(1, 'must not be empty').max(120, 'must be at most 120 characters'),
      summary: z.string().max(2000, 'must be at most 2000 characters').optional(),
      seed: z.number().int('must be an integer').min(0, 'must be ≥ 0').max(0xffffffff, 'must fit in 32 bits').default(1),
      config: schemas.config,
      events: z.array(schemas.event).max(SCENARIO_LIMITS.maxEvents, `must hold at most ${SCENARIO_LIMITS.maxEvents} events`),
      expect: z.array(expectationSchema).optional(),
    })
    .strict()
    .superRefine((value, ctx) => {
      const seen = new Map<string, number>();
      value.events.forEach((event, index) => {
        const id = (event as { id: string }).id;
        const first = seen.get(id);
        if (first !== undefined) {
          ctx.addIssue({ code: 'custom', path: ['events', index, 'id'], message: `duplicate event id "${id}" (also events[${first}].id)` });
        } else seen.set(id, index);
      });
    });
}

/** Result of parsing: the normalised scenario, or every problem as "field: what is wrong". */
export type ParseResult<S = Scenario> = { ok: true; scenario: S } | { ok: false; errors: string[] };

/** Formats a zod path as `events[3].at`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(scenario)' : out;
}

/** What a JSON value is, in words ("a string", "an array", "nothing"), for "got …" in an error. */
function valueKind(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `${value} (not an integer)`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A type as a schema names it, with its article ("a string", "an integer"). */
function typeName(expected: string): string {
  const names: Record<string, string> = { int: 'an integer', number: 'a number', string: 'a string', boolean: 'true or false', object: 'an object', array: 'an array' };
  return names[expected] ?? `a ${expected}`;
}

/** A schema limit as the messages print it: numbers with thousands separators (`1,000,000`), as the labs' own messages write them. */
const limitText = (v: number | bigint): string => (typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 20 }) : String(v));

/**
 * One schema problem in the project's voice, `what is wrong — what to do` (the caller puts the
 * field path in front). A schema's own message is kept as the "what is wrong" part (the schemas
 * word the lab's rules); zod's generic texts ("Invalid input: expected …", "Too big: …") are
 * reworded; the "what to do" part comes from the kind of problem (the limit, the allowed values,
 * the type to give). A message that already has its " — what to do" is kept as it is.
 */
export function issueText(issue: z.core.$ZodIssue): string {
  const own = issue.message;
  if (own.includes(' — ')) return own;
  const generic = /^(Invalid|Too (big|small)|Unrecognized key|Expected|Required)/.test(own);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${generic ? 'is missing' : own} — add it${issue.expected === 'nonoptional' ? '' : ` (${typeName(issue.expected)})`}`;
      return `${generic ? `must be ${typeName(issue.expected)}, got ${valueKind(issue.input)}` : own} — give ${typeName(issue.expected)}`;
    }
    case 'too_big': {
      // z.int() refuses values beyond the safe integers with this limit: say what it means.
      if (issue.maximum === Number.MAX_SAFE_INTEGER) return `${generic ? 'must be an integer' : own}, got ${valueKind(issue.input)} — give a whole number of a sensible size`;
      const max = limitText(issue.maximum);
      return `${generic ? `must be at most ${max}${issue.inclusive === false ? ' (exclusive)' : ''}, got ${valueKind(issue.input)}` : own} — use a value up to ${max}`;
    }
    case 'too_small': {
      const min = limitText(issue.minimum);
      return `${generic ? `must be at least ${min}, got ${valueKind(issue.input)}` : own} — use a value from ${min}`;
    }
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v)).join(', ');
      return `${generic ? `must be one of ${values}, got ${JSON.stringify(issue.input) ?? 'nothing'}` : own} — use ${issue.values.length === 1 ? values : `one of ${values}`}`;
    }
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => `"${k}"`).join(', ')} — remove ${issue.keys.length === 1 ? 'it' : 'them'} or check the spelling against the lab's JSON Schema`;
    case 'not_multiple_of':
      return `${generic ? `must be a multiple of ${String(issue.divisor)}` : own} — round it to a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return `${generic ? 'matches none of the allowed shapes' : own} — check it against the lab's JSON Schema`;
    default:
      return `${own} — correct it and load the scenario again`;
  }
}

/**
 * Validates an already-parsed JSON value as a scenario of `lab`. Never throws: every problem is
 * returned as `"<field path>: <problem>"`, e.g. `events[2].at: must be an integer number of milliseconds`.
 * At most 20 problems are listed. Defaults are filled in, so the result round-trips unchanged.
 */
export function parseScenario(input: unknown, lab: string, schemas: LabSchemas): ParseResult {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return { ok: false, errors: ['(scenario): must be a JSON object with format, lab, id, title, config and events'] };
  }
  const labField = (input as { lab?: unknown }).lab;
  const labProblem = labFieldProblem(labField, lab);
  // Another lab's scenario: where to open it is the one thing to say (its fields are that lab's).
  if (labProblem && isLabId(labField)) return { ok: false, errors: [labProblem] };
  // A missing or unknown lab: that first, then every other problem the file has (walkthrough:
  // `{"format":1}` reported only the lab, then the id, then the title, one import at a time).
  return withLabProblem(labProblem, schemaProblems(input, lab, schemas));
}

/** `result` with `labProblem` (when there is one) as its first error, in place of the schema's own line for `lab`. */
function withLabProblem(labProblem: string | null, result: ParseResult): ParseResult {
  if (!labProblem) return result;
  return { ok: false, errors: [labProblem, ...(result.ok ? [] : result.errors.filter((e) => !e.startsWith('lab: ')))] };
}

/** Validates `input` (an object) against the envelope and `schemas`: the scenario, or at most 20 problems, one per field. */
function schemaProblems(input: object, lab: string, schemas: LabSchemas): ParseResult {
  const result = scenarioSchema(lab, schemas).safeParse(input, { reportInput: true }); // the input lets an error say what it got
  if (result.success) {
    const scenario = result.data as unknown as Scenario;
    return { ok: true, scenario };
  }
  const issues = onePerField(result.error.issues);
  const errors = issues.slice(0, 20).map((issue) => `${formatPath(issue.path)}: ${issueText(issue)}`);
  if (issues.length > 20) errors.push(`… and ${issues.length - 20} more problems`);
  return { ok: false, errors };
}

/**
 * The envelope alone, for a file whose lab is not known (the CLI picks the lab's schemas from the
 * `lab` field): config an object and events objects, what each holds unchecked.
 */
const ANY_LAB_SCHEMAS: LabSchemas = { config: z.looseObject({}), event: z.looseObject({}) };

/** How telling an issue is for its field: a wrong kind first, then a real limit, then the rest, last z.int()'s safe-integer bound. */
function issueRank(issue: z.core.$ZodIssue): number {
  if (issue.code === 'invalid_type') return 0;
  if (issue.code === 'too_big' && issue.maximum === Number.MAX_SAFE_INTEGER) return 3;
  if (issue.code === 'too_big' || issue.code === 'too_small') return 1;
  return 2;
}

/**
 * One issue per field path, in the order the fields were first reported: the value 1e20 in an
 * integer field with a maximum fails both z.int()'s safe-integer bound and the field's own limit,
 * and the reader needs one message (the limit), not two (walkthrough, issue 9).
 */
function onePerField(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const best = new Map<string, z.core.$ZodIssue>();
  for (const issue of issues) {
    const key = formatPath(issue.path);
    const seen = best.get(key);
    if (!seen || issueRank(issue) < issueRank(seen)) best.set(key, issue);
  }
  return [...best.values()];
}

/**
 * Parses scenario text (JSON). JSON syntax errors are reported with the parser's own position,
 * prefixed by `where` (`(file)`, `(pasted text)`, …).
 */
export function parseScenarioText(text: string, lab: string, schemas: LabSchemas, where = '(file)'): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [`${where}: not valid JSON — ${(err as Error).message}`] };
  }
  return parseScenario(value, lab, schemas);
}

/**
 * Parses a scenario of any known lab from JSON text, picking the lab from its `lab` field and its
 * schemas from `schemasOf` (so a caller can load only that lab's). `parseJson` is `JSON.parse`
 * unless the caller has the value already. Errors name the field and the problem; never throws.
 */
export function parseAnyScenarioTextWith(text: string, schemasOf: (lab: LabId) => LabSchemas, parseJson: (text: string) => unknown = JSON.parse): ParseResult & { lab?: LabId } {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (err) {
    return { ok: false, errors: [`(file): not valid JSON — ${(err as Error).message}`] };
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const lab = isObject ? (value as { lab?: unknown }).lab : undefined;
  if (!isLabId(lab)) {
    const labProblem = `lab: must be one of ${LAB_IDS.map((l) => `"${l}"`).join(', ')}, got ${JSON.stringify(lab) ?? 'nothing'} — set "lab" to the lab the scenario is for`;
    // With no lab to check config and events against, the envelope's problems still come in the same message.
    return isObject ? withLabProblem(labProblem, schemaProblems(value as object, 'lab', ANY_LAB_SCHEMAS)) : { ok: false, errors: [labProblem] };
  }
  return { ...parseScenario(value, lab, schemasOf(lab)), lab };
}
