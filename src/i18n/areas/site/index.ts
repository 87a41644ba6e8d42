import { defineArea } from '../../area';
import { en } from './en';

/** The site footer's area (see `src/i18n/area.ts`). */
export const siteText = defineArea(en, {
  es: () => import('./es'),
  ar: () => import('./ar'),
  zh: () => import('./zh'),
});
