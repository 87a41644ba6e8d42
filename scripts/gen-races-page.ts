// Writes src/store/generated/racesPage.json: the races built-ins parsed at build time and the settings texts (see src/store/racesPageData.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { RACES_PAGE_DATA, renderRacesPageData } from '../src/store/racesPageData';

const root = path.resolve(import.meta.dirname, '..');
writeFileSync(path.join(root, RACES_PAGE_DATA), renderRacesPageData(root));
console.log(`wrote ${RACES_PAGE_DATA}`);
