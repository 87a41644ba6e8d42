import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { RacesStore, RacesStoreState } from '../../store/racesStore';

/** The races store of the lab instance on this page (one store per instance). */
export const RacesStoreContext = createContext<RacesStore | null>(null);

export function useRacesStore(): RacesStore {
  const store = useContext(RacesStoreContext);
  if (!store) throw new Error('useRacesStore: no RacesStoreContext provider');
  return store;
}

/** Subscribes to one slice of the races store (pass a named selector from racesStore.ts). */
export function useRaces<T>(selector: (s: RacesStoreState) => T): T {
  return useStore(useRacesStore(), selector);
}
