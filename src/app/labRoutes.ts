import type { ComponentType } from 'react';

/**
 * The shell's one lab registry, found by glob: every `src/labs/<lab>/route.ts` exports `route`
 * (its nav entry and how to get its page), so adding a lab edits no file of the shell. Nav order
 * is `order` (ascending). The page is `eager` (in the initial bundle: the landing lab) or `load`
 * (a lazy chunk, so the initial JavaScript stays within its budget and heavy dependencies such as
 * sql.js load only when their lab opens).
 */
export interface LabRouteEntry {
  /** Route id: `#/<id>/…`; the lab's folder name. */
  id: string;
  /** Nav label. */
  name: string;
  /** One line under the label: what the lab is about. */
  blurb: string;
  /** Nav position (ascending). */
  order: number;
  /** false shows the lab as "soon" in the nav (default true). */
  ready?: boolean;
  page: { eager: ComponentType } | { load: () => Promise<ComponentType> };
}

const found = import.meta.glob<LabRouteEntry>('../labs/*/route.ts', { eager: true, import: 'route' });

/** Every lab's route, in nav order. */
export const LAB_ROUTES: readonly LabRouteEntry[] = Object.values(found).sort((a, b) => a.order - b.order);
