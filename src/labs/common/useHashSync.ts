import { useEffect } from 'react';
import { rememberAddress, takeFresh } from '../../store/labStores';
import { addressStep, createAddressWriter } from './addressWriter';
import { chaosAddress } from './chaosAddress';

/** What `useHashSync` watches: a lab store (see `createLabStore`). */
interface SyncedStore {
  getState(): { lab: string; scenario: unknown; cursorMs: number; playing: boolean; dragging: boolean; lastNudge?: { id: string; atMs: number } | null; address(): string; followLink(hash: string): void };
  subscribe(listener: (state: ReturnType<SyncedStore['getState']>, prev: ReturnType<SyncedStore['getState']>) => void): () => void;
}

/**
 * Keeps the address (`#/<lab>…`) in step with a lab's store, both ways, the same in every lab:
 * after each edit, at the end of a drag (on a timer, after the release is drawn) and when the
 * paused playhead moves, the store's `address()` replaces the address (no history entry per edit), throttled so a big scenario (whose
 * encoding costs milliseconds) writes at most every 300 ms and never more than ~16 times a second
 * (keyboard nudges: once, 300 ms after the last; see `createAddressWriter`);
 * a pending write is flushed when the page is hidden, so a reload right after an edit keeps it. A
 * link opened in the tab (pasted, Back/Forward, a nav link) goes to `followLink`, and the address
 * is then rewritten from the store, so a refused link never stays where a reload would lose the
 * scenario. While a chaos seed's faulted scenario is shown, the address is that seed's link
 * (`chaosAddress`). Other labs' hashes are ignored; each write is remembered for the nav links.
 */
export function useHashSync(store: SyncedStore): void {
  useEffect(() => {
    const lab = store.getState().lab;
    const prefix = `#/${lab}`;
    const ours = (hash: string) => hash === prefix || hash.startsWith(`${prefix}/`) || hash.startsWith(`${prefix}?`);
    let written = '';
    const writer = createAddressWriter(() => {
      // A write still pending when the learner opened another lab must not take the address back.
      if (!ours(window.location.hash)) return;
      const state = store.getState();
      const hash = chaosAddress(lab, state.scenario) ?? state.address();
      if (hash !== window.location.hash) history.replaceState(history.state, '', hash);
      written = hash;
      rememberAddress(lab, hash);
    }, { now: () => performance.now(), setTimeout: (run, ms) => window.setTimeout(run, ms), clearTimeout: (id) => window.clearTimeout(id) });
    const write = writer.write;
    const follow = () => {
      const hash = window.location.hash;
      if (hash === written || !ours(hash)) return;
      written = hash;
      store.getState().followLink(hash);
      write();
    };
    // A page opened again (nav link, Back) may carry an address other than the store's; a store
    // just made from this address has already read it.
    if (takeFresh(lab)) written = window.location.hash;
    follow();
    if (ours(window.location.hash)) write();
    const unsub = store.subscribe((s, prev) => {
      // A keyboard nudge waits until the keys rest; a pointer drag waits for its end, then writes in a task of its own.
      const step = addressStep(s, prev);
      if (step?.kind === 'nudged') writer.nudged();
      else if (step) writer.schedule(step.defer);
    });
    const flush = writer.flush;
    window.addEventListener('hashchange', follow);
    window.addEventListener('pagehide', flush);
    return () => {
      unsub();
      flush();
      window.removeEventListener('hashchange', follow);
      window.removeEventListener('pagehide', flush);
    };
  }, [store]);
}
