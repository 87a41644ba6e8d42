import type { LinearScale } from '../scale';

/**
 * What every timeline behaviour reads when an event arrives (through its `getState()`): the current
 * scale (ms → px over the visible window), the plot's left and right edges (px, in the container's
 * coordinates) and the shown time range (`domain`, ms; the range a full zoom-out shows).
 */
export interface TimeView {
  x: LinearScale;
  plotLeft: number;
  plotRight: number;
  domain: readonly [number, number];
}

/** What a behaviour factory returns (after xyflow's `XYDrag`): `update` (re)attaches it to elements, `destroy` removes every listener it added. */
export interface Behaviour<E> {
  update(elements: E): void;
  destroy(): void;
}

/** The element with `[data-handle]` an event started on (inside `root` only), or null. */
export function handleOf(target: EventTarget | null, root?: Element): (Element & { dataset?: DOMStringMap }) | null {
  const el = (target as Element | null)?.closest?.('[data-handle]') ?? null;
  return el && (!root || root.contains(el)) ? el : null;
}
