import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { ResilienceStore, ResilienceStoreState } from '../../store/resilienceStore';

/** The resilience store of the lab instance on this page. */
export const StoreContext = createContext<ResilienceStore | null>(null);

export function useResilienceStore(): ResilienceStore {
  const s = useContext(StoreContext);
  if (!s) throw new Error('useResilienceStore: no StoreContext provider');
  return s;
}

/** Subscribes to one slice of the resilience store. */
export function useR<T>(selector: (s: ResilienceStoreState) => T): T {
  return useStore(useResilienceStore(), selector);
}
