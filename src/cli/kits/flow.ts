import { flowDefinition } from '../../sim/flow/definition';
import { flowConfigSchema, flowEventSchema } from '../../sim/flow/schema';
import { flowReport } from '../flowReport';
import type { LabKit } from './kit';

/** The flow lab for `replay` (its lessons run thousands of steps: expectations replay effects only). */
export const flowKit: LabKit = { schemas: { config: flowConfigSchema, event: flowEventSchema }, definition: () => flowDefinition, report: { build: flowReport, expectKeep: 'effects' } };
