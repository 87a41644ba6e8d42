import type { LabRouteEntry } from '../../app/labRoutes';

/** The resilience lab in the shell's registry (found by glob): a lazy chunk. */
export const route: LabRouteEntry = { id: 'resilience', name: 'Resilience', blurb: 'tasks, retries, budgets and circuit breakers', order: 4, page: { load: () => import('./ResilienceLab').then((m) => m.ResilienceLab) } };
