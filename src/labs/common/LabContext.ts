import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';

/**
 * The page kit's one context: the lab store of this page (one store per lab instance, see
 * `createLabStore`). Panels read it with `useLab(selector)` (a named selector from the store
 * modules) and call verbs with `useLabStore().getState().<verb>()`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const LabContext = createContext<StoreApi<any> | null>(null);

/** The lab store of this page; throws `Error` outside a `LabPage`. */
export function useLabStore<S>(): StoreApi<S> {
  const store = useContext(LabContext);
  if (!store) throw new Error('useLabStore: no LabPage (LabContext provider) above this component');
  return store as StoreApi<S>;
}

/** Subscribes to one slice of the page's lab store. */
export function useLab<S, T>(selector: (state: S) => T): T {
  return useStore(useLabStore<S>(), selector);
}
