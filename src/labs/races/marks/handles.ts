import { formatMs } from '../../../charts/format';
import type { HandleMark, Tone } from '../../../charts/timelineTypes';
import type { RacesTrace } from '../../../sim/races';
import type { ScriptedEvent } from '../../../sim/types';
import { racesTraceView } from '../../../store/racesStore';
import type { RacesTimelineLayout } from './layout';

/** Handle marks: one draggable handle per scripted event, with its tie order at a shared millisecond. */

const EVENT_STYLE: Record<string, { tone: Tone; shape: HandleMark['shape'] }> = {
  start: { tone: 'client', shape: 'diamond' },
  cancel: { tone: 'bad', shape: 'square' },
  disconnect: { tone: 'warn', shape: 'square' },
  inject: { tone: 'warn', shape: 'triangle' },
  progress: { tone: 'server', shape: 'circle' },
  keepalive: { tone: 'muted', shape: 'circle' },
  complete: { tone: 'ok', shape: 'circle' },
  error: { tone: 'bad', shape: 'circle' },
  'server-cancel': { tone: 'warn', shape: 'square' },
};

type StaticHandle = Omit<HandleMark, 'future'>;

/** What a handle was drawn from, so an unchanged event keeps its handle object across edits. */
interface HandleInputs {
  row: string;
  reasons: string;
  tieOrder: number | undefined;
  tieCount: number;
  handle: StaticHandle;
}

/** Handles of the last trace drawn, keyed by scripted event object (an edit keeps the objects of the events it did not change). */
export type HandleCache = WeakMap<ScriptedEvent, HandleInputs>;

/**
 * The scripted events of `trace` as handles (not yet split into past / future by the playhead).
 * With `cache` (from an earlier call), an event whose inputs are unchanged (same event object,
 * row, ignored reasons and tie order) gets its earlier handle object back, and the cache is updated.
 */
export function scriptHandles(trace: RacesTrace, layout: RacesTimelineLayout, cache: HandleCache = new WeakMap()): StaticHandle[] {
  const { scenario } = trace;
  const view = racesTraceView(trace);
  const stepOfEvent = new Map<string, number>();
  for (let i = 0; i < view.stepCount; i++) {
    const entry = view.entryOf(i);
    if (entry.source === 'script') stepOfEvent.set(entry.label, i);
  }

  // Tie order of scripted events sharing a millisecond (list order decides who goes first).
  const byMs = new Map<number, ScriptedEvent[]>();
  for (const ev of scenario.events) {
    const list = byMs.get(ev.at);
    if (list) list.push(ev);
    else byMs.set(ev.at, [ev]);
  }

  return scenario.events.map((ev) => {
    const step = stepOfEvent.get(ev.id);
    const key = step !== undefined ? view.keyOf(step) : null;
    const lane = ev.actor === 'server' || ev.actor === 'worker' ? 'server' : 'client';
    const row = layout.rowFor(lane, key, 'event');
    const stepIgnored = step !== undefined ? view.ignoredOf(step) : [];
    const same = byMs.get(ev.at) ?? [];
    const tieOrder = same.length > 1 && same.length <= 8 ? same.indexOf(ev) + 1 : undefined;
    const reasons = stepIgnored.map((i) => `ignored by the ${i.by}: ${i.reason}`).join('; ');
    const known = cache.get(ev);
    if (known && known.row === row && known.reasons === reasons && known.tieOrder === tieOrder && known.tieCount === same.length) return known.handle;
    const style = EVENT_STYLE[ev.kind] ?? { tone: 'neutral' as Tone, shape: 'circle' as const };
    const title = `${ev.id} — ${ev.actor} ${ev.kind} at ${formatMs(ev.at)} ms${tieOrder ? ` (${tieOrder} of ${same.length} at this ms)` : ''}${reasons ? `. ${reasons}` : ''}. Drag, or focus and use the arrow keys.`;
    const handle: StaticHandle = {
      kind: 'handle' as const,
      id: ev.id,
      lane,
      row,
      at: ev.at,
      tone: style.tone,
      shape: style.shape,
      label: ev.label ?? ev.id,
      group: ev.kind,
      ariaLabel: `${ev.id} at ${ev.at} ms`,
      testId: `handle-${ev.id}`,
      ignored: stepIgnored.length > 0,
      tieOrder,
      title,
    };
    cache.set(ev, { row, reasons, tieOrder, tieCount: same.length, handle });
    return handle;
  });
}
