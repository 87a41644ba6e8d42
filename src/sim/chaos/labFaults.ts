/**
 * Per lab, the faults that mean something to it: each lab's contract carries them
 * (`LabDefinition.chaos`, in `src/sim/<lab>/chaos.ts`), so a faulted scenario is an ordinary
 * scenario of that lab (the models are not touched: it validates with the lab's parser, replays,
 * drags and travels in a link like any other). This module reads them through the registry.
 */
import type { LabChaos } from '../lab';
import type { LabId } from '../labIds';
import { labContract } from '../labs';
import type { FaultKind } from './faults';

export type { Faulted } from './faults';

/** The chaos part of `lab`'s contract. Throws `Error` for a lab that has none. */
export function labChaos(lab: LabId): LabChaos {
  const chaos = labContract(lab).chaos;
  if (!chaos) throw new Error(`chaos: the ${lab} lab has no chaos part (LabDefinition.chaos)`);
  return chaos;
}

/** The fault kinds `lab` applies (for the page and the docs). */
export function labFaultKinds(lab: LabId): readonly FaultKind[] {
  return labChaos(lab).faultKinds;
}
