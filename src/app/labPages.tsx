import { lazy, type ComponentType } from 'react';
import { RacesLab } from '../labs/races/RacesLab';
import type { LabRoute } from './router';

/**
 * How to get each lab's page component, by route id. Races is in the initial bundle (it is the
 * landing lab); every other lab is a lazy chunk so the initial JavaScript stays within its budget
 * (≤ 150 KB gzip) and heavy dependencies (sql.js) load only when their lab opens. The shell makes
 * the lazy component (`pageOf`) and makes a fresh one on "Try again" after a failed load.
 * Add a lab: `name: () => import('../labs/<name>/<Name>Lab').then((m) => m.<Name>Lab)`.
 */
export const LAB_PAGES: Partial<Record<LabRoute, ComponentType | (() => Promise<ComponentType>)>> = {
  races: RacesLab,
  ledger: () => import('../labs/ledger/LedgerLab').then((m) => m.LedgerLab),
  flow: () => import('../labs/flow/FlowLab').then((m) => m.FlowLab),
  resilience: () => import('../labs/resilience/ResilienceLab').then((m) => m.ResilienceLab),
  traffic: () => import('../labs/traffic/TrafficLab').then((m) => m.TrafficLab),
};

/** The component a lab chunk exports, by the chunk's file name (`FlowLab-x1y2.js` → `FlowLab`). */
function exportedPage(url: string): string {
  return /\/([A-Za-z]+)-[^/]*\.js/.exec(url)?.[1] ?? '';
}

/**
 * Loads a lab's chunk; on a retry after a failed load, the browser may hold the failure in its
 * module map, so the chunk named in the error is fetched again under a fresh URL.
 */
function loadWithRetry(load: () => Promise<ComponentType>, attempt: number): Promise<ComponentType> {
  return load().catch((err: Error) => {
    const url = /https?:\/\/\S+?\.js/.exec(err.message)?.[0];
    if (attempt === 0 || !url) throw err;
    return import(/* @vite-ignore */ `${url}?retry=${attempt}`).then((m: Record<string, ComponentType>) => {
      const page = m[exportedPage(url)];
      if (!page) throw err;
      return page;
    });
  });
}

const eager = new Set<unknown>([RacesLab]);

/** The component for lab `id` (attempt `n` makes a new lazy wrapper, so a failed chunk load is retried). */
export function pageOf(id: LabRoute, attempt: number): ComponentType | undefined {
  const entry = LAB_PAGES[id];
  if (!entry || eager.has(entry)) return entry as ComponentType | undefined;
  return lazyPage(() => loadWithRetry(entry as () => Promise<ComponentType>, attempt), `${id}#${attempt}`);
}

const made = new Map<string, ComponentType>();
function lazyPage(load: () => Promise<ComponentType>, key: string): ComponentType {
  let page = made.get(key);
  if (!page) {
    page = lazy(() => load().then((c) => ({ default: c })));
    made.set(key, page);
  }
  return page;
}
