import { useLab, useLabStore } from '../common/LabContext';
import type { ResilienceStore, ResilienceStoreState } from '../../store/resilienceStore';

/** The resilience store of this page (the kit's `LabContext`). */
export function useResilienceStore(): ResilienceStore {
  return useLabStore<ResilienceStoreState>() as ResilienceStore;
}

/** Subscribes to one slice of the resilience store. */
export function useR<T>(selector: (s: ResilienceStoreState) => T): T {
  return useLab<ResilienceStoreState, T>(selector);
}
