import { racesDefinition } from '../../sim/races/definition';
import { RACES_SCHEMAS } from '../../sim/races/schema';
import { racesReport } from '../racesReport';
import type { LabKit } from './kit';

/** The races lab for `replay`. */
export const racesKit: LabKit = { schemas: RACES_SCHEMAS, definition: () => racesDefinition, report: { build: racesReport } };
