import { resilienceDefinition } from '../../sim/resilience/definition';
import { resilienceConfigSchema, resilienceEventSchema } from '../../sim/resilience/schema';
import { resilienceReport } from '../resilienceReport';
import type { LabKit } from './kit';

/** The resilience lab for `replay`. */
export const resilienceKit: LabKit = { schemas: { config: resilienceConfigSchema, event: resilienceEventSchema }, definition: () => resilienceDefinition, report: { build: resilienceReport } };
