import { useEffect } from 'react';
import type { Scenario } from '../../sim/types';

/** What `useHashSync` watches: a zustand-style store whose state holds the scenario and a drag flag. */
interface SyncedStore<S extends { scenario: Scenario; dragging: boolean }> {
  getState(): S;
  subscribe(listener: (state: S, prev: S) => void): () => void;
}

/**
 * Keeps the address (`#/<lab>…`) in step with a lab's scenario, both ways, the same in every lab
 * page: after each edit (and at the end of a drag) `encode(state)` replaces the address, so a reload
 * or a copied link shows exactly that scenario; a link opened inside the tab (pasted, Back/Forward)
 * goes to `follow(hash)`, which loads it or reports it in the banner. Afterwards the address is
 * rewritten from the store, so a refused link never stays where a reload would lose the scenario.
 * Hashes this hook wrote itself, and other labs' hashes, are ignored. No history entry per edit.
 */
export function useHashSync<S extends { scenario: Scenario; dragging: boolean }>(lab: string, store: SyncedStore<S>, encode: (state: S) => string, follow: (hash: string) => void): void {
  useEffect(() => {
    const prefix = `#/${lab}`;
    let written = window.location.hash;
    const write = () => {
      const hash = encode(store.getState());
      if (hash !== window.location.hash) history.replaceState(history.state, '', hash);
      written = hash;
    };
    if (window.location.hash.startsWith(prefix)) write();
    const unsub = store.subscribe((s, prev) => {
      const changed = (s.scenario !== prev.scenario && !s.dragging) || (prev.dragging && !s.dragging);
      if (changed && window.location.hash.startsWith(prefix)) write();
    });
    const onHash = () => {
      const hash = window.location.hash;
      if (hash === written || !hash.startsWith(prefix)) return;
      written = hash;
      follow(hash);
      write();
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      unsub();
      window.removeEventListener('hashchange', onHash);
    };
  }, [lab, store, encode, follow]);
}
