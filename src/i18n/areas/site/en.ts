/**
 * The site footer's words (English source). Keys start with `site.`; see `src/i18n/area.ts` for the
 * layout every area follows.
 */
export const en = {
  'site.footer': 'Everything runs in your browser on a virtual clock: same scenario, same trace. Spec revisions {latest} and {previous}.',
} as const;
