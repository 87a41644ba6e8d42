import { useSyncExternalStore } from 'react';

/**
 * Labs of the site, in nav order. `ready: false` shows the lab as "soon" in the nav.
 * The page component of each ready lab is registered in `labPages.tsx` (lazy-loaded except races).
 */
export const LABS = [
  { id: 'races', name: 'Races', blurb: 'cancellation, timeouts and progress', ready: true },
  { id: 'ledger', name: 'Ledger', blurb: 'idempotency keys in a real SQLite ledger', ready: true },
  { id: 'flow', name: 'Flow', blurb: 'SSE buffers, proxies, reconnects and jitter', ready: true },
  { id: 'resilience', name: 'Resilience', blurb: 'tasks, retries, budgets and circuit breakers', ready: true },
  { id: 'traffic', name: 'Traffic', blurb: 'import your own MCP transcripts, check them and what-if them', ready: true },
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
