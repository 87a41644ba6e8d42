import Ajv2020 from 'ajv/dist/2020.js';
import type { LabId } from '../sim/labIds';
import type { LabSchemas } from '../sim/scenario';
import { EVENT_VALIDATOR_OPTIONS, eventJsonSchema } from './eventJsonSchema';

/**
 * Where the quick scenario parse (`fastScenario.ts`) gets its event validators: compiled here by
 * ajv at run time from the lab's event JSON Schema (`eventJsonSchema`). The bundled CLI
 * (`scripts/build-cli.mjs`) replaces this module with the same validators compiled ahead of time
 * (ajv standalone, one file per lab), so the bundle loads neither ajv's compiler nor zod's JSON
 * Schema export.
 */

const compiled = new Map<LabId, (event: unknown) => boolean>();

/** The validator of one scripted event of `lab` (true: the event is valid against the lab's event JSON Schema). */
export function eventValidator(lab: LabId, schemas: LabSchemas): (event: unknown) => boolean {
  let v = compiled.get(lab);
  if (!v) compiled.set(lab, (v = new Ajv2020(EVENT_VALIDATOR_OPTIONS).compile(eventJsonSchema(schemas))));
  return v;
}
