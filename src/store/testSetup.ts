// Vitest setup (vitest.config.ts `setupFiles`): the races page store loads its scenario parser
// lazily (src/store/racesParser.ts); tests drive the store synchronously, so it is loaded first.
import { loadRacesParser } from './racesParser';

await loadRacesParser();
