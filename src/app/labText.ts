import type { MessageKey } from '../i18n/locales/en';
import type { translate } from '../i18n/i18n';

/** The catalogue keys of the routes' nav names and blurbs (`lab.<route id>.name` / `.blurb`); a route without them shows its English text. */
const LAB_KEYS: readonly MessageKey[] = [
  'lab.races.name',
  'lab.races.blurb',
  'lab.ledger.name',
  'lab.ledger.blurb',
  'lab.flow.name',
  'lab.flow.blurb',
  'lab.resilience.name',
  'lab.resilience.blurb',
  'lab.traffic.name',
  'lab.traffic.blurb',
];

/** A route's two keys, when the catalogues carry them. */
function labKeys(id: string): { name: MessageKey; blurb: MessageKey } | null {
  const name = `lab.${id}.name` as MessageKey;
  const blurb = `lab.${id}.blurb` as MessageKey;
  return LAB_KEYS.includes(name) && LAB_KEYS.includes(blurb) ? { name, blurb } : null;
}

/** A lab's name and blurb in the shown language. */
export function labText(t: typeof translate, lab: { id: string; name: string; blurb: string }): { name: string; blurb: string } {
  const keys = labKeys(lab.id);
  return keys ? { name: t(keys.name), blurb: t(keys.blurb) } : { name: lab.name, blurb: lab.blurb };
}
