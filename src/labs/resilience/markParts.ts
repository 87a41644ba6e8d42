import type { HandleMark, TimelineLane, TimelineMark, Tone } from '../../charts/timelineTypes';
import type { ResilienceTrace } from '../../sim/resilience';
import { finalStateOf, traceView } from '../../store/resilienceStore';
import type { ScriptedEvent } from '../../sim/types';

/** What the resilience timeline draws: its lanes and marks (`resilienceView`, per mechanism). */
export interface ResilienceView {
  lanes: TimelineLane[];
  marks: TimelineMark[];
}

/** The handle shape of each scripted event kind (circle when not listed). */
const SHAPES: Record<string, HandleMark['shape']> = {
  call: 'diamond',
  abort: 'diamond',
  request: 'diamond',
  cancel: 'diamond',
  created: 'circle',
  checkpoint: 'square',
  finish: 'square',
  'input-required': 'square',
  resume: 'square',
  recover: 'triangle',
  outage: 'triangle',
};

/** The final state of `trace`, typed as the mechanism's state `S`. */
export function lastState<S>(trace: ResilienceTrace): S {
  return finalStateOf(trace) as unknown as S;
}

/** The timeline handle of scripted event `ev` on `lane`/`row`: test id `handle-<id>`, future after `cursorMs` (ms), dimmed when `ignored`. */
export function handle(ev: ScriptedEvent, lane: string, row: string, cursorMs: number, tone: Tone, ignored: boolean): HandleMark {
  const count = typeof ev.count === 'number' && ev.count > 1 ? ` ×${ev.count}` : '';
  const label = ev.label ?? `${ev.kind}${count}`;
  return {
    kind: 'handle',
    id: ev.id,
    lane,
    row,
    at: ev.at,
    tone,
    shape: SHAPES[ev.kind] ?? 'circle',
    label,
    group: ev.kind,
    ariaLabel: `${ev.actor} ${ev.kind}${count} "${ev.id}" at ${ev.at} ms`,
    testId: `handle-${ev.id}`,
    future: ev.at > cursorMs,
    ignored,
  };
}

/** Ids of the scripted events the model ignored at some step. */
export function ignoredIds(trace: ResilienceTrace): Set<string> {
  const out = new Set<string>();
  const t = traceView(trace);
  for (let i = 0; i < t.stepCount; i++) {
    if (t.ignoredOf(i).length === 0) continue;
    const entry = t.entryOf(i);
    if (entry.source === 'script') out.add(entry.label);
  }
  return out;
}
/** Packs intervals into as few rows as possible (first fit); returns a row index per interval. */
export function packRows(intervals: readonly { from: number; to: number }[], maxRows: number): number[] {
  const ends: number[] = [];
  return intervals.map((iv) => {
    let row = ends.findIndex((end) => end <= iv.from);
    if (row < 0) {
      if (ends.length < maxRows) row = ends.push(iv.to) - 1;
      else row = ends.indexOf(Math.min(...ends));
    }
    ends[row] = Math.max(iv.to, iv.from + 1);
    return row;
  });
}
