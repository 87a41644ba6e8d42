import type { LabRouteEntry } from '../../app/labRoutes';

/** The flow lab in the shell's registry (found by glob): a lazy chunk. */
export const route: LabRouteEntry = { id: 'flow', name: 'Flow', blurb: 'SSE buffers, proxies, reconnects and jitter', order: 3, page: { load: () => import('./FlowLab').then((m) => m.FlowLab) } };
