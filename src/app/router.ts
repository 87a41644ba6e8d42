import { useSyncExternalStore } from 'react';

/** Labs of the site, in nav order. Only `races` is built so far. */
export const LABS = [
  { id: 'races', name: 'Races', blurb: 'cancellation, timeouts and progress', ready: true },
  { id: 'duplicates', name: 'Duplicates', blurb: 'idempotency keys and retries', ready: false },
  { id: 'buffers', name: 'Buffers', blurb: 'SSE buffer pressure', ready: false },
  { id: 'reconnects', name: 'Reconnects', blurb: 'reconnect herds and jitter', ready: false },
  { id: 'breakers', name: 'Breakers', blurb: 'circuit breakers and retry budgets', ready: false },
] as const;

export type LabRoute = (typeof LABS)[number]['id'];

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
