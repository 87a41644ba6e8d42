import { lazy, type ComponentType } from 'react';
import { LAB_ROUTES } from './labRoutes';
import type { LabRoute } from './router';

/**
 * How to get each lab's page component, by route id, from the shell's lab registry
 * (`labRoutes.ts`). The shell makes the lazy component (`pageOf`) and makes a fresh one on
 * "Try again" after a failed load.
 */
export const LAB_PAGES: Partial<Record<LabRoute, ComponentType | (() => Promise<ComponentType>)>> = Object.fromEntries(
  LAB_ROUTES.map((r) => [r.id, 'eager' in r.page ? r.page.eager : r.page.load]),
);

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

const eager = new Set<unknown>(LAB_ROUTES.flatMap((r) => ('eager' in r.page ? [r.page.eager] : [])));

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
