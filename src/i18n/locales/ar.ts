import type { Catalogue } from './en';

/**
 * Arabic catalogue (lazy chunk; the page is `dir="rtl"`). Terms from the Arabic article
 * (`src/i18n/glossary.ts`): إعادة المحاولة، مفتاح الدائرة، التذبذب، المهلة الزمنية، الصمود؛ where the
 * article is silent (cancellation, progress, task, idempotency key), the glossary's `lab` term.
 */
export const messages: Catalogue = {
  'shell.skip': 'انتقل إلى المختبر',
  'shell.brand': 'مختبر موثوقية MCP',
  'shell.start': 'ابدأ من هنا',
  'shell.startTitle': 'ابدأ من هنا: ما الغرض من المختبر ومن أين تبدأ',
  'shell.skipTimeline': 'انتقل إلى أول حدث في الخط الزمني',
  'nav.label': 'المختبرات',
  'nav.soon': 'قريباً',
  'nav.soonTitle': '{blurb} — قريباً',
  'lab.races.name': 'السباقات',
  'lab.races.blurb': 'الإلغاء والمهلات الزمنية والتقدم',
  'lab.ledger.name': 'دفتر الأستاذ',
  'lab.ledger.blurb': 'مفاتيح عدم التكرار في دفتر أستاذ SQLite حقيقي',
  'lab.flow.name': 'التدفق',
  'lab.flow.blurb': 'مخازن SSE المؤقتة والوكلاء وإعادة الاتصال والتذبذب',
  'lab.resilience.name': 'الصمود',
  'lab.resilience.blurb': 'المهام وإعادة المحاولة والميزانيات ومفاتيح الدائرة',
  'lab.traffic.name': 'حركة المرور',
  'lab.traffic.blurb': 'استورد نصوص MCP الخاصة بك وافحصها وجرّب بدائلها',
  'theme.label': 'المظهر',
  'theme.auto': 'تلقائي',
  'theme.light': 'فاتح',
  'theme.dark': 'داكن',
  'lang.label': 'اللغة',
  'update.available': 'يتوفر إصدار جديد — ',
  'update.reload': 'إعادة التحميل',
  'update.later': 'لاحقاً',
};
