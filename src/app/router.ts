import { useSyncExternalStore } from 'react';
import { LAB_ROUTES } from './labRoutes';

/**
 * Labs of the site, in nav order, from the shell's lab registry (`labRoutes.ts`: each
 * `src/labs/<lab>/route.ts`, found by glob). `ready: false` shows the lab as "soon" in the nav.
 */
export const LABS = LAB_ROUTES.map(({ id, name, blurb, ready }) => ({ id, name, blurb, ready: ready ?? true }));

/** A lab's route id (its folder name under src/labs). */
export type LabRoute = string;

/** The lab named by a hash such as `#/races/A?x=1`, or null. */
export function labOfHash(hash: string): string | null {
  const m = /^#\/([A-Za-z0-9-]+)/.exec(hash);
  return m ? m[1] : null;
}

function subscribe(callback: () => void) {
  window.addEventListener('hashchange', callback);
  return () => window.removeEventListener('hashchange', callback);
}

/** The current lab id from the hash (re-renders on hash navigation only). */
export function useLabRoute(): string | null {
  return useSyncExternalStore(subscribe, () => labOfHash(window.location.hash), () => null);
}
