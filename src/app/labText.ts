import type { MessageKey } from '../i18n/locales/en';
import type { translate } from '../i18n/i18n';

/** Catalogue keys of each lab's nav name and blurb (a lab without an entry shows its route's English text). */
const LAB_TEXT: Readonly<Record<string, { name: MessageKey; blurb: MessageKey }>> = {
  races: { name: 'lab.races.name', blurb: 'lab.races.blurb' },
  ledger: { name: 'lab.ledger.name', blurb: 'lab.ledger.blurb' },
  flow: { name: 'lab.flow.name', blurb: 'lab.flow.blurb' },
  resilience: { name: 'lab.resilience.name', blurb: 'lab.resilience.blurb' },
  traffic: { name: 'lab.traffic.name', blurb: 'lab.traffic.blurb' },
};

/** A lab's name and blurb in the shown language. */
export function labText(t: typeof translate, lab: { id: string; name: string; blurb: string }): { name: string; blurb: string } {
  const keys = LAB_TEXT[lab.id];
  return keys ? { name: t(keys.name), blurb: t(keys.blurb) } : { name: lab.name, blurb: lab.blurb };
}
