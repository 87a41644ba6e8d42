// Writes public/scenario.schema.json from the runtime zod schemas (see src/sim/jsonSchema.ts).
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchema } from '../src/sim/jsonSchema';

writeFileSync(new URL('../public/scenario.schema.json', import.meta.url), JSON.stringify(scenarioJsonSchema(), null, 2) + '\n');
console.log('wrote public/scenario.schema.json');
