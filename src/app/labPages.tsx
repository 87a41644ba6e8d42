import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { RacesLab } from '../labs/races/RacesLab';
import type { LabRoute } from './router';

/**
 * The page component of each lab, by route id. Races is in the initial bundle (it is the landing
 * lab); every other lab is a lazy chunk so the initial JavaScript stays within its budget
 * (≤ 150 KB gzip) and heavy dependencies (sql.js) load only when their lab opens.
 * Add a lab: `name: lazy(() => import('../labs/<name>/<Name>Lab').then((m) => ({ default: m.<Name>Lab })))`.
 */
export const LAB_PAGES: Partial<Record<LabRoute, ComponentType | LazyExoticComponent<ComponentType>>> = {
  races: RacesLab,
  ledger: lazyLab(() => import('../labs/ledger/LedgerLab'), 'LedgerLab'),
  flow: lazyLab(() => import('../labs/flow/FlowLab'), 'FlowLab'),
  resilience: lazyLab(() => import('../labs/resilience/ResilienceLab'), 'ResilienceLab'),
};

/** Convenience for registering a lazy lab page whose module exports the component by name. */
export function lazyLab<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): LazyExoticComponent<ComponentType> {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}
