import type { LabRouteEntry } from '../../app/labRoutes';
import { RacesLab } from './RacesLab';

/** The races lab in the shell's registry (found by glob): the landing lab, in the initial bundle. */
export const route: LabRouteEntry = { id: 'races', name: 'Races', blurb: 'cancellation, timeouts and progress', order: 1, page: { eager: RacesLab } };
