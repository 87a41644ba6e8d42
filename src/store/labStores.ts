import { createStore } from 'zustand/vanilla';

/**
 * The lab stores of this tab, by lab id: each lab's store is made the first time its page opens
 * and lives while the tab does, so switching labs with the top nav keeps every lab's scenario,
 * settings, playhead and undo history (in memory only; the address holds the lab on screen).
 * `labAddresses` holds each lab's current address for the nav links, so Back and a reload agree
 * with what is shown.
 */
const stores = new Map<string, unknown>();
/** Labs whose store was just made from the address (their first hash sync must not follow it again). */
const fresh = new Set<string>();

/** The store of lab `lab` in this tab, made by `create` on first use. */
export function labStoreFor<S>(lab: string, create: () => S): S {
  let store = stores.get(lab) as S | undefined;
  if (store === undefined) {
    store = create();
    stores.set(lab, store);
    fresh.add(lab);
  }
  return store;
}

/** True once after lab `lab`'s store was made from the current address (then false until the next store). */
export function takeFresh(lab: string): boolean {
  return fresh.delete(lab);
}

/** Whether lab `lab` already has its store in this tab. */
export function hasLabStore(lab: string): boolean {
  return stores.has(lab);
}

/** Each lab's current address (`#/races/B-complete-then-cancel?t=120`), by lab id. */
export const labAddresses = createStore<Record<string, string>>(() => ({}));

/** Records the address lab `lab` shows now (its hash sync calls this after each write). */
export function rememberAddress(lab: string, hash: string): void {
  if (labAddresses.getState()[lab] !== hash) labAddresses.setState({ [lab]: hash });
}
