import { en, type MessageKey } from '../i18n/locales/en';
import type { translate } from '../i18n/i18n';

/**
 * The catalogue keys of a route's nav name and blurb, by convention `lab.<id>.name` / `lab.<id>.blurb`
 * (the English catalogue decides which routes have them; another route shows its own English text).
 */
function labKeys(id: string): { name: MessageKey; blurb: MessageKey } | null {
  const name = `lab.${id}.name`;
  const blurb = `lab.${id}.blurb`;
  return name in en && blurb in en ? { name: name as MessageKey, blurb: blurb as MessageKey } : null;
}

/** A lab's name and blurb in the shown language. */
export function labText(t: typeof translate, lab: { id: string; name: string; blurb: string }): { name: string; blurb: string } {
  const keys = labKeys(lab.id);
  return keys ? { name: t(keys.name), blurb: t(keys.blurb) } : { name: lab.name, blurb: lab.blurb };
}
