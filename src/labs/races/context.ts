import { useLab, useLabStore } from '../common/LabContext';
import type { RacesStore, RacesStoreState } from '../../store/racesStore';

/** The races store of this page (the kit's `LabContext`). */
export function useRacesStore(): RacesStore {
  return useLabStore<RacesStoreState>() as RacesStore;
}

/** Subscribes to one slice of the races store (pass a named selector from racesStore.ts). */
export function useRaces<T>(selector: (s: RacesStoreState) => T): T {
  return useLab<RacesStoreState, T>(selector);
}
