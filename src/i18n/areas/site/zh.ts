import type { AreaCatalogue } from '../../area';
import type { en } from './en';

/** Chinese: the site footer. */
export const messages: AreaCatalogue<typeof en> = {
  'site.footer': '一切都在你的浏览器里、在虚拟时钟上运行：同样的场景，同样的轨迹。规范版本 {latest} 与 {previous}。',
};
