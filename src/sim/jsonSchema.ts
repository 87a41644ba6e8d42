import * as z from 'zod';
import { LAB_SCHEMAS } from './labs';
import { scenarioSchema } from './scenario';

/**
 * The published JSON Schema (draft 2020-12) of scenario files, generated from the same zod
 * schemas that validate them at runtime, so the two cannot drift. Written to
 * `public/scenario.schema.json` by `npm run schema`; a test fails when the file is stale.
 */
export function scenarioJsonSchema(): Record<string, unknown> {
  const perLab = Object.entries(LAB_SCHEMAS).map(([lab, schemas]) =>
    z.toJSONSchema(scenarioSchema(lab, schemas), { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
  );
  const { $schema: _drop, ...first } = perLab[0] as Record<string, unknown>;
  void _drop;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://mcp-reliability-lab.local/scenario.schema.json',
    title: 'MCP Reliability Lab scenario',
    description: 'A scenario is data: { format, lab, id, title, summary?, seed, config, events[], expect? }. Times are integer milliseconds of virtual time.',
    ...(perLab.length === 1 ? first : { oneOf: perLab.map((s) => { const { $schema: _s, ...rest } = s as Record<string, unknown>; void _s; return rest; }) }),
  };
}
