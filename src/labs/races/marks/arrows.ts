import { formatMs } from '../../../charts/format';
import type { ArrowMark, Tone } from '../../../charts/timelineTypes';
import type { Json, WireEffect } from '../../../sim/types';
import type { RacesTimelineLayout } from './layout';

/** Arrow marks: each wire effect as an arrow from sender to receiver, labelled on the wire lane. */

export function effectLabel(e: WireEffect): string {
  const m = e.message;
  if (m !== undefined && m !== null && typeof m === 'object' && !Array.isArray(m)) {
    const method = typeof m.method === 'string' ? m.method : null;
    if (e.malformed) return `${method ?? 'message'} (malformed)`;
    if (method) return method;
    if ('result' in m) {
      const r = m.result as { resultType?: Json } | null;
      // 2026-07-28 MRTR: an InputRequiredResult is not the final result.
      return r !== null && typeof r === 'object' && r.resultType === 'input_required' ? 'result (input_required)' : 'result';
    }
    if ('error' in m) {
      const err = m.error as { code?: Json } | null;
      return `error ${err && typeof err === 'object' && 'code' in err ? String(err.code) : ''}`.trim();
    }
    return 'message';
  }
  if (m !== undefined) return 'raw message (malformed)';
  const http = e.http ?? '';
  if (/keep-alive/i.test(http)) return ': keep-alive';
  if (/network drops/i.test(http)) return 'stream dropped';
  if (/closes the SSE/i.test(http)) return 'stream close';
  return http.length > 24 ? `${http.slice(0, 23)}…` : http;
}

function effectTone(e: WireEffect): Tone {
  const label = effectLabel(e);
  if (e.malformed) return 'warn';
  if (/cancel|stream close|stream dropped/.test(label)) return 'bad';
  if (label === 'result') return 'ok';
  if (label.startsWith('error')) return 'bad';
  if (label === ': keep-alive') return 'muted';
  return e.from === 'client' ? 'client' : 'server';
}

export interface StaticArrow {
  mark: Omit<ArrowMark, 'future' | 'dotAt'>;
  sentAt: number;
  arrivesAt: number | null;
}

/** The arrows of one step at `at` (its wire effects in order); `stableId` the step's key that stays stable across edits (`source:label#occurrence`, from `racesStatic`). */
export function stepArrows(at: number, effects: readonly WireEffect[], layout: RacesTimelineLayout, stableId: string): StaticArrow[] {
  return effects.map((e, i) => {
    const from = e.from;
    const to = from === 'client' ? 'server' : 'client';
    const key = e.requestKey ?? null;
    const label = effectLabel(e);
    const via = e.http ? ` — ${e.http}` : '';
    const when = e.arrivesAt !== undefined ? `sent ${formatMs(at)} ms, arrives ${formatMs(e.arrivesAt)} ms` : `at ${formatMs(at)} ms, never delivered`;
    return {
      sentAt: at,
      arrivesAt: e.arrivesAt ?? null,
      mark: {
        kind: 'arrow',
        id: `a:${stableId}:${i}`,
        tone: effectTone(e),
        from: { lane: from, row: layout.rowFor(from, key, 'event'), at },
        to: e.arrivesAt !== undefined ? { lane: to, row: layout.rowFor(to, key, 'event'), at: e.arrivesAt } : null,
        dashed: e.message === undefined,
        label,
        labelLane: 'wire',
        title: `${from} → ${to}: ${label} (${when})${via}`,
      },
    };
  });
}
