import type { LabRouteEntry } from '../../app/labRoutes';

/** The Traffic page in the shell's registry (found by glob; not a lab of the contract): a lazy chunk. */
export const route: LabRouteEntry = { id: 'traffic', name: 'Traffic', blurb: 'import your own MCP transcripts, check them and what-if them', order: 5, page: { load: () => import('./TrafficLab').then((m) => m.TrafficLab) } };
