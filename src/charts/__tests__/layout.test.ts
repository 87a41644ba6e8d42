import { describe, expect, it } from 'vitest';
import { neutraliseBidi } from '../format';
import { fitLabel, placeHandles, placeMarkers, placeSpanLabel, stackOffsets } from '../labels';
import { AXIS_H, CHAR_W, clampView, computeLayout, HANDLE_R, LANE_PAD, niceStep, rowBox, rowCenterY, splitMarks } from '../layout';
import { linearScale } from '../scale';
import type { HandleMark, MarkerMark, SpanMark, TimelineLane } from '../timelineTypes';

const lanes: TimelineLane[] = [
  { id: 'client', label: 'client', rows: [{ id: 'name', height: 16 }, { id: 'call', height: 26, label: 'id 1' }] },
  { id: 'conn-A', label: 'connection A', rows: [{ id: 'steps', height: 40 }] },
];
const x = linearScale([0, 1000], [118, 884]);
const handle = (id: string, at: number, extra: Partial<HandleMark> = {}): HandleMark => ({ kind: 'handle', id, lane: 'conn-A', row: 'steps', at, shape: 'circle', tone: 'server', ariaLabel: id, ...extra });

describe('layout: lanes and rows', () => {
  it('stacks lanes below the axis with LANE_PAD around their rows', () => {
    const l = computeLayout(lanes);
    expect(l.lanes.map((ln) => [ln.y, ln.h])).toEqual([
      [AXIS_H, 16 + 26 + 2 * LANE_PAD],
      [AXIS_H + 52, 40 + 2 * LANE_PAD],
    ]);
    expect(rowBox(l, 'conn-A', 'steps')).toEqual({ y: AXIS_H + 52 + LANE_PAD, h: 40 });
    expect(rowBox(l, 'conn-A', 'nope')).toEqual(rowBox(l, 'conn-A', 'steps'));
    expect(rowBox(l, 'nope', 'nope')).toEqual({ y: AXIS_H, h: 20 });
    expect(rowCenterY({ y: 100, h: 40 })).toBe(122);
    expect(rowCenterY({ y: 100, h: 20 })).toBe(110);
    expect(l.height).toBe(AXIS_H + 52 + 50 + 22);
  });

  it('keeps a view window inside the domain and rounds page steps', () => {
    expect(clampView([-50, 150], 0, 1000)).toEqual([0, 200]);
    expect(clampView([950, 1150], 0, 1000)).toEqual([800, 1000]);
    expect(clampView([-10, 5000], 0, 1000)).toEqual([0, 1000]);
    expect([0.5, 14, 30, 60, 80].map(niceStep)).toEqual([1, 10, 20, 50, 100]);
  });
});

describe('label placement (behaviour kept from the single-file chart)', () => {
  it('fitLabel drops middle words first, then cuts the end', () => {
    expect(fitLabel('executed r-1 (lost)', 200)).toBe('executed r-1 (lost)');
    expect(fitLabel('mismatch key reused with another body', 20 * CHAR_W)).toBe('mismatch key … body');
    expect(fitLabel('executed', 6 * CHAR_W)).toBe('execu…');
    expect(fitLabel('executed', 2 * CHAR_W)).toBe('');
  });

  it('fitLabel keeps a number with its unit whole (walkthrough, races I6 at 390 px: "cancelled … ms" had lost the time)', () => {
    expect(fitLabel('cancelled · 2 430 ms', 18 * CHAR_W)).toBe('cancelled 2 430 ms');
    expect(fitLabel('cancelled · 2 430 ms', 16 * CHAR_W)).toBe('cancel… 2 430 ms');
    expect(fitLabel('timed out (idle) · 12 000 ms', 20 * CHAR_W)).toBe('timed … 12 000 ms');
    // Never a misleading part of the number ("… 430 ms" for 2 430 ms).
    for (let w = 5; w < 20; w++) expect(fitLabel('cancelled · 2 430 ms', w * CHAR_W)).not.toMatch(/(^|[^\d ]) ?430 ms/);
  });

  it('a span label goes after the end, before it when there is no room, and is shortened when neither side fits', () => {
    const m: SpanMark = { kind: 'span', id: 's', lane: 'client', row: 'call', at: 0, to: 10, tone: 'ok', endLabel: 'executed r-1' };
    expect(placeSpanLabel(m, 300, 26, 118, 884)).toEqual({ text: 'executed r-1', anchor: 'start', full: undefined });
    expect(placeSpanLabel(m, 870, 26, 118, 884)).toEqual({ text: 'executed r-1', anchor: 'end', full: undefined });
    expect(placeSpanLabel(m, 300, 20, 118, 884).text).toBeNull(); // row too low
    const narrow = placeSpanLabel({ ...m, endLabel: 'mismatch key reused with another body' }, 190, 26, 118, 300);
    expect(narrow).toEqual({ text: 'mismatch … body', anchor: 'start', full: 'mismatch key reused with another body' });
    const roomierLeft = placeSpanLabel({ ...m, endLabel: 'mismatch key reused with another body' }, 250, 26, 118, 300);
    expect(roomierLeft).toEqual({ text: 'mismatch key … body', anchor: 'end', full: 'mismatch key reused with another body' });
  });

  it('a span label clears an arrow through its first letters (races I6) and another row\'s handle label (ledger C at 390 px)', () => {
    const m: SpanMark = { kind: 'span', id: 's', lane: 'client', row: 'call', at: 0, to: 10, tone: 'bad', endLabel: 'cancelled · 1 020 ms' };
    // Nothing in the way: as before.
    expect(placeSpanLabel(m, 300, 40, 118, 884, { bottom: [[200, 250]], centre: [] })).toEqual({ text: 'cancelled · 1 020 ms', anchor: 'start', full: undefined });
    // An arrow at x 310 (the label starts at 306): moved just past it.
    expect(placeSpanLabel(m, 300, 40, 118, 884, { bottom: [[309, 311]], centre: [] })).toEqual({ text: 'cancelled · 1 020 ms', anchor: 'start', full: undefined, dx: 8 });
    // A handle label over most of it: to the row's centre line beside the bar's end, when that is clear.
    const c: SpanMark = { ...m, endLabel: 'executed charge-001' };
    expect(placeSpanLabel(c, 118, 26, 118, 316, { bottom: [[175, 221]], centre: [[114, 122]] })).toEqual({ text: 'executed charge-001', anchor: 'start', dx: 4, atCentre: true });
    // Blocked there too: stays as placed.
    expect(placeSpanLabel(c, 118, 26, 118, 316, { bottom: [[175, 221]], centre: [[150, 160]] })).toEqual({ text: 'executed charge-001', anchor: 'start', full: undefined });
  });

  it('handles close together cluster as "<group> ×n"; a label near the right edge flips to end at its handle', () => {
    const placed = placeHandles([handle('a', 100, { label: 'begin', group: 'step' }), handle('b', 101, { label: 'read', group: 'step' }), handle('c', 990, { label: 'commit' })], x, 884);
    expect(placed.map((p) => p.label)).toEqual([null, 'step ×2', 'commit']);
    expect(placed[2].flip).toBe(true);
    expect(placed[0].flip).toBe(false);
  });

  it('a top marker label that would cover a handle label flips to the other side when that is clear', () => {
    const layout = computeLayout(lanes);
    const call = handle('call', 100, { lane: 'client', row: 'call', label: 'call 1', shape: 'diamond' });
    const hs = placeHandles([call], x, 884, layout);
    const timeout: MarkerMark = { kind: 'marker', id: 't', lane: 'client', row: 'call', at: 90, tone: 'bad', label: 'timeout', anchor: 'start', labelAt: 'top' };
    expect(placeMarkers([timeout], x, layout, 118, 884, hs)[0].anchor).toBe('end');
    expect(placeMarkers([{ ...timeout, at: 400 }], x, layout, 118, 884, hs)[0].anchor).toBe('start');
    // Off-scale markers of one row merge at the edge.
    const off = placeMarkers([{ ...timeout, id: 'u', at: 2000 }, { ...timeout, id: 'v', at: 3000, label: 'max' }], x, layout, 118, 884, hs);
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({ x: 884, offscale: 'right', anchor: 'end', label: 'timeout · max →' });
  });

  it('a labelUntil marker label is the full label, the abbreviation, or none', () => {
    const layout = computeLayout(lanes);
    const m: MarkerMark = { kind: 'marker', id: 'm', lane: 'conn-A', row: 'steps', at: 100, tone: 'ok', label: 'closed', shortLabel: 'C', labelUntil: 300 };
    expect(placeMarkers([m], x, layout, 118, 884, [])[0].label).toBe('closed');
    expect(placeMarkers([{ ...m, labelUntil: 130 }], x, layout, 118, 884, [])[0].label).toBe('C');
    expect(placeMarkers([{ ...m, labelUntil: 105 }], x, layout, 118, 884, [])[0].label).toBeNull();
  });
});

describe('finding: steps of one connection at the same millisecond can each be grabbed', () => {
  /** The handle on top (drawn last) whose hit circle (HANDLE_R + 5) holds the point, as the browser picks it. */
  function topAt(placed: { id: string; x: number; y: number }[], px: number, py: number): string | null {
    let hit: string | null = null;
    for (const p of placed) if (Math.hypot(p.x - px, p.y - py) <= HANDLE_R + 5) hit = p.id;
    return hit;
  }

  it('every handle of a same-ms stack is the top one somewhere inside its own hit circle', () => {
    const layout = computeLayout(lanes);
    const cy = rowCenterY(rowBox(layout, 'conn-A', 'steps'));
    for (const n of [2, 3, 5]) {
      const stack = Array.from({ length: n }, (_, i) => handle(`s${i}`, 200, { label: 'step', group: 'step', tieOrder: i + 1 }));
      const placed = placeHandles(stack, x, 884, layout).map((p) => ({ id: p.mark.id, x: p.x, y: cy + p.dy }));
      for (const p of placed) {
        let grabbable = false;
        for (let dy = -(HANDLE_R + 5); dy <= HANDLE_R + 5 && !grabbable; dy++) grabbable = topAt(placed, p.x, p.y + dy) === p.id;
        expect(grabbable, `${p.id} of ${n}`).toBe(true);
      }
    }
  });

  it('stacks in tie order, top first, inside the row; each shows its tie number; a lone handle stays on the centre line', () => {
    const layout = computeLayout(lanes);
    const placed = placeHandles([handle('late', 200, { tieOrder: 2 }), handle('early', 200, { tieOrder: 1 }), handle('alone', 500)], x, 884, layout);
    const [late, early, alone] = placed;
    expect(early.dy).toBeLessThan(late.dy);
    expect([early.tieOrder, late.tieOrder]).toEqual([1, 2]);
    expect(alone.dy).toBe(0);
    const box = rowBox(layout, 'conn-A', 'steps');
    for (const n of [2, 3, 5]) {
      const stack = placeHandles(Array.from({ length: n }, (_, i) => handle(`s${i}`, 300)), x, 884, layout);
      for (const p of stack) {
        const y = rowCenterY(box) + p.dy;
        expect(y - HANDLE_R).toBeGreaterThanOrEqual(box.y);
        expect(y + HANDLE_R).toBeLessThanOrEqual(box.y + box.h);
      }
    }
    expect(stackOffsets(1, 40)).toEqual([0]);
    expect(stackOffsets(2, 40)).toEqual([-8, 8]);
  });

  it('a stack too tall for its row (fifty same-time events) stays one cluster on the centre line, labelled ×n', () => {
    const layout = computeLayout(lanes);
    expect(stackOffsets(50, 40)).toBeNull();
    const placed = placeHandles(Array.from({ length: 50 }, (_, i) => handle(`c${i}`, 10, { label: 'call', group: 'call' })), x, 884, layout);
    expect(placed.every((p) => p.dy === 0 && p.tieOrder === null)).toBe(true);
    expect(placed.filter((p) => p.label !== null).map((p) => p.label)).toEqual(['call ×50']);
  });
});

describe('finding: bidi control characters are neutralised in displayed labels', () => {
  const controls = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

  it('neutraliseBidi removes every bidi control and keeps other text, right-to-left letters included', () => {
    for (const c of controls) expect(neutraliseBidi(`call ${c}1 done`)).toBe('call 1 done');
    expect(neutraliseBidi('طلب 1 — ok')).toBe('طلب 1 — ok');
  });

  it('lane and row names and every text field of a mark are cleaned before layout', () => {
    const l = computeLayout([{ id: 'c', label: 'client\u202E', rows: [{ id: 'r', height: 26, label: '\u2067id 1' }] }]);
    expect(l.lanes[0].label).toBe('client');
    expect(l.lanes[0].rows[0].label).toBe('id 1');
    const split = splitMarks([
      handle('h', 0, { label: 'evil\u202Etxt', ariaLabel: 'a\u200Fb', title: 't\u2066', group: 'g\u061C' }),
      { kind: 'span', id: 's', lane: 'c', row: 'r', at: 0, to: 1, tone: 'ok', endLabel: 'e\u202Bnd' },
      { kind: 'marker', id: 'm', lane: 'c', row: 'r', at: 0, tone: 'ok', label: 'l\u202D', shortLabel: 's\u202C' },
    ]);
    expect(split.handles[0]).toMatchObject({ label: 'eviltxt', ariaLabel: 'ab', title: 't', group: 'g' });
    expect(split.spans[0].endLabel).toBe('end');
    expect(split.markers[0]).toMatchObject({ label: 'l', shortLabel: 's' });
  });
});

describe('finding: races labels crowd at 390 px (walkthrough: deadline labels over the row names, the merged edge label over "start ×2")', () => {
  // A 390 px wide chart: plot from 118 to 374 px.
  const narrow = linearScale([0, 1000], [118, 374]);
  const extent = (p: { x: number; anchor: 'start' | 'end'; label: string | null }) => {
    const w = (p.label ?? '').length * CHAR_W;
    return p.anchor === 'start' ? [p.x + 4, p.x + 4 + w] : [p.x - 4 - w, p.x - 4];
  };
  const deadline = (id: string, at: number, label: string, extra: Partial<MarkerMark> = {}): MarkerMark => ({ kind: 'marker', id, lane: 'client', row: 'call', at, tone: 'warn', label, anchor: 'end', labelAt: 'bottom', title: `${label} deadline`, ...extra });

  it('a marker label that would run into the row names goes to the other side of its line', () => {
    const layout = computeLayout(lanes);
    const [m] = placeMarkers([deadline('idle', 100, 'idle 500')], narrow, layout, 118, 374, []);
    expect(m.anchor).toBe('start');
    expect(extent(m)[0]).toBeGreaterThanOrEqual(118);
    expect(m.label).toBe('idle 500');
  });

  it('two deadline labels of one row never overlap: the later one goes to the free side or is left to its tooltip', () => {
    const layout = computeLayout(lanes);
    const placed = placeMarkers([deadline('idle', 400, 'idle 1 000', { anchor: 'start' }), deadline('max', 430, 'max 150', { anchor: 'start' })], narrow, layout, 118, 374, []);
    const [a, b] = placed.map(extent);
    expect(placed[0].label).toBe('idle 1 000');
    expect(placed[1].label === null || b[1] + 3 <= a[0] || b[0] >= a[1] + 3).toBe(true);
    expect(placed[1].title).toContain('max 150');
  });

  it('a label too long for either side is shortened inside the plot, its whole text in the tooltip', () => {
    const layout = computeLayout(lanes);
    const long = 'max 30 000 (not enforced by a timer in this policy)';
    const [m] = placeMarkers([deadline('max', 500, long)], narrow, layout, 118, 374, []);
    expect(m.label).not.toBe(long);
    expect(m.label?.endsWith('…') || m.label?.includes('…')).toBe(true);
    const [l, r] = extent(m);
    expect(l).toBeGreaterThanOrEqual(118);
    expect(r).toBeLessThanOrEqual(374 + 12);
    expect(m.title).toContain(long);
  });

  it('the merged edge label stops before a handle label at its height and never enters the row names', () => {
    const layout = computeLayout(lanes);
    const box = rowBox(layout, 'client', 'call');
    // A handle whose label sits at the height of the row's bottom labels (a handle on the row below's top).
    const starts = placeHandles([handle('s1', 300, { lane: 'client', row: 'call', label: 'start ×2' })], narrow, 374, layout);
    const labelBaseline = rowCenterY(box) - HANDLE_R - 4;
    const bottomBaseline = box.y + box.h - 3;
    const labelAt = Math.abs(labelBaseline - bottomBaseline) < 11 ? 'bottom' : 'top';
    const off = placeMarkers([deadline('i', 2000, 'idle 10 000', { labelAt }), deadline('m', 3000, 'max 30 000 (not enforced)', { labelAt })], narrow, layout, 118, 374, starts);
    expect(off).toHaveLength(1);
    const e = off[0];
    expect(e.offscale).toBe('right');
    expect(e.title).toBe('idle 10 000 · max 30 000 (not enforced) (outside the visible range)');
    const [l] = extent(e);
    expect(l).toBeGreaterThanOrEqual(118);
    const h = starts[0];
    const hLeft = h.flip ? h.x + HANDLE_R - (h.label ?? '').length * CHAR_W : h.x - HANDLE_R + 1;
    const hRight = hLeft + (h.label ?? '').length * CHAR_W;
    expect(e.label === null || l >= hRight + 3).toBe(true);
    // At full width the whole merged label fits and is drawn as before.
    const wide = placeMarkers([deadline('i', 2000, 'idle 10 000', { labelAt }), deadline('m', 3000, 'max 30 000 (not enforced)', { labelAt })], x, layout, 118, 884, []);
    expect(wide[0].label).toBe('idle 10 000 · max 30 000 (not enforced) →');
  });
});
