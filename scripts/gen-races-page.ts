// Writes src/store/generated/racesPage.json (the races built-ins parsed at build time and the settings texts) and
// racesFirstPaint.json (the first built-in, the errors and the settings texts, for the first paint); see src/store/racesPageData.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { RACES_FIRST_PAINT_DATA, RACES_PAGE_DATA, renderRacesFirstPaintData, renderRacesPageData } from '../src/store/racesPageData';

const root = path.resolve(import.meta.dirname, '..');
writeFileSync(path.join(root, RACES_PAGE_DATA), renderRacesPageData(root));
writeFileSync(path.join(root, RACES_FIRST_PAINT_DATA), renderRacesFirstPaintData(root));
console.log(`wrote ${RACES_PAGE_DATA} and ${RACES_FIRST_PAINT_DATA}`);
