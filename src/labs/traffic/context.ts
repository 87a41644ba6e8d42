import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { TrafficState, TrafficStore } from '../../store/trafficStore';
import type { TrafficRunner } from './trafficRunner';
import { useFields } from '../common/useFields';

/** The traffic page's store and its worker runner, provided by `TrafficLab`. */
export const TrafficContext = createContext<{ store: TrafficStore; runner: TrafficRunner } | null>(null);

function useCtx() {
  const ctx = useContext(TrafficContext);
  if (!ctx) throw new Error('TrafficContext: used outside <TrafficLab> — wrap the panel in the page');
  return ctx;
}

/** A slice of the traffic store (re-renders when it changes). */
export function useTraffic<U>(selector: (s: TrafficState) => U): U {
  return useStore(useCtx().store, selector);
}

/** Several fields of the traffic store at once (see `useFields`): `const { transcript, spans } = useTrafficFields('transcript', 'spans')`. */
export function useTrafficFields<K extends keyof TrafficState>(...keys: K[]): Pick<TrafficState, K> {
  return useFields(useCtx().store, ...keys);
}

/** The store and the runner (for actions). */
export function useTrafficApi() {
  return useCtx();
}

/** The current check options from the inputs, or null while one is invalid. */
export function currentCheckOptions(s: TrafficState): { allowanceMs: number; maxMs: number | null } {
  const a = Number(s.allowanceText.trim());
  const m = s.maxText.trim() === '' ? null : Number(s.maxText.trim());
  return { allowanceMs: s.fieldErrors.allowanceMs || !Number.isFinite(a) ? 1000 : a, maxMs: s.fieldErrors.maxMs || (m !== null && !Number.isFinite(m)) ? null : m };
}
