import type { AreaCatalogue } from '../../area';
import type { en } from './en';

/** Spanish: the site footer. */
export const messages: AreaCatalogue<typeof en> = {
  'site.footer': 'Todo se ejecuta en su navegador sobre un reloj virtual: mismo escenario, misma traza. Revisiones de la especificación {latest} y {previous}.',
};
