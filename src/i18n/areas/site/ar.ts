import type { AreaCatalogue } from '../../area';
import type { en } from './en';

/** Arabic: the site footer. */
export const messages: AreaCatalogue<typeof en> = {
  'site.footer': 'يعمل كل شيء في متصفحك على ساعة افتراضية: السيناريو نفسه والأثر نفسه. مراجعتا المواصفة {latest} و{previous}.',
};
