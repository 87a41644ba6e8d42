import { describe, expect, it, vi } from 'vitest';
import { XYHandleDrag, type HandleDragChange, type HandleDragState } from '../behaviours/handleDrag';
import { keyToMove, XYKeyboard, type KeyboardState, type KeyMove } from '../behaviours/keyboard';
import { panWindow, XYPanZoom, zoomWindow, type PanZoomState, type ViewWindow } from '../behaviours/panZoom';
import { scrubMs, XYScrub } from '../behaviours/scrub';
import { linearScale } from '../scale';
import { asElement, FakeElement } from './fakes';

// d3-drag asks `navigator.maxTouchPoints` when it attaches (Node 20 has no navigator).
vi.stubGlobal('navigator', { maxTouchPoints: 0 });

// A plot from 100 px to 1100 px: 1 px per ms over [0, 1000].
const view = (domain: readonly [number, number] = [0, 1000], visible: readonly [number, number] = domain) => ({
  x: linearScale(visible, [100, 1100]),
  plotLeft: 100,
  plotRight: 1100,
  domain,
});

describe('keyboard factory: keys → moves and reorders', () => {
  const s: KeyboardState = { snapMs: 10, fineSnapMs: 1, visible: [0, 1000] };
  const k = (key: string, mods: { shiftKey?: boolean; altKey?: boolean } = {}) => keyToMove({ key, shiftKey: !!mods.shiftKey, altKey: !!mods.altKey }, 'h', s);

  it('arrows nudge by snapMs, Shift by fineSnapMs, with the right sign', () => {
    expect(k('ArrowRight')).toEqual({ type: 'nudge', id: 'h', deltaMs: 10 });
    expect(k('ArrowUp')).toEqual({ type: 'nudge', id: 'h', deltaMs: 10 });
    expect(k('ArrowLeft')).toEqual({ type: 'nudge', id: 'h', deltaMs: -10 });
    expect(k('ArrowDown')).toEqual({ type: 'nudge', id: 'h', deltaMs: -10 });
    expect(k('ArrowRight', { shiftKey: true })).toEqual({ type: 'nudge', id: 'h', deltaMs: 1 });
    expect(k('ArrowLeft', { shiftKey: true })).toEqual({ type: 'nudge', id: 'h', deltaMs: -1 });
  });

  it('PageUp/PageDown move by a nice tenth of the visible range, at least one step', () => {
    expect(k('PageUp')).toEqual({ type: 'nudge', id: 'h', deltaMs: 100 });
    expect(k('PageDown')).toEqual({ type: 'nudge', id: 'h', deltaMs: -100 });
    expect(keyToMove({ key: 'PageUp', shiftKey: false, altKey: false }, 'h', { ...s, visible: [0, 3000] })).toEqual({ type: 'nudge', id: 'h', deltaMs: 200 });
    expect(keyToMove({ key: 'PageUp', shiftKey: false, altKey: false }, 'h', { ...s, visible: [0, 40] })).toEqual({ type: 'nudge', id: 'h', deltaMs: 10 });
  });

  it('Alt+arrows and [ ] reorder; other keys are not taken', () => {
    expect(k('ArrowLeft', { altKey: true })).toEqual({ type: 'reorder', id: 'h', direction: -1 });
    expect(k('ArrowUp', { altKey: true })).toEqual({ type: 'reorder', id: 'h', direction: -1 });
    expect(k('ArrowRight', { altKey: true })).toEqual({ type: 'reorder', id: 'h', direction: 1 });
    expect(k('ArrowDown', { altKey: true })).toEqual({ type: 'reorder', id: 'h', direction: 1 });
    expect(k('[')).toEqual({ type: 'reorder', id: 'h', direction: -1 });
    expect(k(']')).toEqual({ type: 'reorder', id: 'h', direction: 1 });
    expect(k('Home')).toBeNull();
    expect(k(' ')).toBeNull();
  });

  it('listens on the layer: a key on a handle is consumed, a key elsewhere passes; focus selects; destroy removes the listeners', () => {
    const layer = new FakeElement();
    const handle = new FakeElement({ attrs: { 'data-handle': 'B-read', 'data-at': '20' }, parent: layer });
    const glyph = new FakeElement({ parent: handle });
    const outside = new FakeElement();
    const moves: KeyMove[] = [];
    const focused: string[] = [];
    const kb = XYKeyboard({ getState: () => s, onMove: (m) => moves.push(m), onFocus: (id) => focused.push(id) });
    kb.update({ layer: asElement(layer) });
    const used = glyph.dispatch('keydown', { key: 'ArrowRight', shiftKey: true, altKey: false });
    expect(moves).toEqual([{ type: 'nudge', id: 'B-read', deltaMs: 1 }]);
    expect(used.defaultPrevented && used.stopped).toBe(true);
    const free = glyph.dispatch('keydown', { key: 'Home', shiftKey: false, altKey: false });
    expect(free.defaultPrevented || free.stopped).toBe(false);
    layer.dispatch('keydown', { key: 'ArrowRight', shiftKey: false, altKey: false, target: outside });
    expect(moves).toHaveLength(1);
    handle.dispatch('focusin', {});
    expect(focused).toEqual(['B-read']);
    kb.destroy();
    expect(layer.listenerCount()).toBe(0);
  });
});

describe('handle drag factory', () => {
  function setup(domain: readonly [number, number] = [0, 1000]) {
    // The chart re-renders with the frozen (widened) domain: the state follows the changes reported.
    let shown = domain;
    const changes: HandleDragChange[] = [];
    const state = (): HandleDragState => ({ ...view(shown), snapMs: 10, fineSnapMs: 1 });
    const d = XYHandleDrag({
      getState: state,
      onChange: (c) => {
        changes.push(c);
        if (c.type === 'start' || c.type === 'widen') shown = c.domain;
        if (c.type === 'end') shown = domain;
      },
    });
    return { d, changes, moves: () => changes.filter((c) => c.type === 'move').map((c) => (c as { ms: number }).ms), shown: () => shown };
  }

  it('maps the pointer to ms through the scale and snaps (10 ms; 1 ms when fine)', () => {
    const { d, changes, moves } = setup();
    d.start('a', 200);
    expect(changes).toEqual([{ type: 'select', id: 'a' }]);
    d.move(100 + 433, false);
    d.move(100 + 437, true);
    d.end();
    expect(moves()).toEqual([430, 437]);
    expect(changes.map((c) => c.type)).toEqual(['select', 'start', 'move', 'move', 'end']);
  });

  it('a press that does not change the time selects but starts no drag', () => {
    const { d, changes } = setup();
    d.start('a', 200);
    d.move(100 + 202, false); // snaps back to 200
    d.end();
    expect(changes).toEqual([{ type: 'select', id: 'a' }]);
  });

  it('never goes below 0 ms (the pointer is clamped to the plot)', () => {
    const { d, moves } = setup();
    d.start('a', 50);
    d.move(-500, false);
    expect(moves()).toEqual([0]);
  });

  it('past the right edge the domain widens, but the handle stops at twice the shown range', () => {
    const { d, changes, moves, shown } = setup([0, 1000]);
    d.start('a', 900);
    for (let i = 0; i < 200; i++) d.move(5000, false); // the pointer rests far beyond the edge
    expect(Math.max(...moves())).toBe(2000);
    expect(moves().every((ms) => ms <= 2000)).toBe(true);
    expect(shown()).toEqual([0, 2000]);
    const widened = changes.filter((c) => c.type === 'widen').map((c) => (c as { domain: readonly [number, number] }).domain[1]);
    expect(widened.length).toBeGreaterThan(1);
    expect(widened.every((end, i) => i === 0 || end > widened[i - 1])).toBe(true);
    d.end();
    expect(changes[changes.length - 1]).toEqual({ type: 'end', id: 'a' });
  });

  it('attaches d3-drag to the layer and detaches it on destroy', () => {
    const layer = new FakeElement();
    const { d } = setup();
    d.update({ layer: asElement(layer), container: asElement(new FakeElement()) });
    expect(layer.listeners.get('mousedown')?.size).toBe(1);
    d.destroy();
    expect(layer.listenerCount()).toBe(0);
  });
});

describe('scrub factory: pixels → ms via the scale', () => {
  it('inverts the scale, clamps to the plot and the domain, and rounds to whole ms', () => {
    expect(scrubMs(100 + 321.4, view())).toBe(321);
    expect(scrubMs(40, view())).toBe(0);
    expect(scrubMs(5000, view())).toBe(1000);
    // Zoomed to [400, 600]: 5 px per ms.
    expect(scrubMs(100 + 500, view([0, 1000], [400, 600]))).toBe(500);
  });

  it('sticks to a snap time within 6 px, the nearest when several are', () => {
    const s = { ...view(), snapTimes: [300, 305, 700] };
    expect(scrubMs(100 + 303, s)).toBe(305);
    expect(scrubMs(100 + 301, s)).toBe(300);
    expect(scrubMs(100 + 690, s)).toBe(690);
    expect(scrubMs(100 + 695, s)).toBe(700);
  });

  it('seekAt reports the time; the strip gets a d3-drag, removed on destroy', () => {
    const seeks: number[] = [];
    const sc = XYScrub({ getState: () => view(), onSeek: (ms) => seeks.push(ms) });
    sc.seekAt(100 + 250);
    expect(seeks).toEqual([250]);
    const strip = new FakeElement();
    sc.update({ strip: asElement(strip), container: asElement(new FakeElement()) });
    expect(strip.listeners.get('mousedown')?.size).toBe(1);
    sc.destroy();
    expect(strip.listenerCount()).toBe(0);
  });
});

describe('pan/zoom factory', () => {
  const state = (visible: readonly [number, number] = [0, 1000], cursorMs = 500): PanZoomState => ({ ...view([0, 1000], visible), cursorMs });

  it('zooms around the centre pixel, keeping the time under it in place; fully out is null', () => {
    expect(zoomWindow(state(), 2, 100 + 200)).toEqual([100, 600]);
    expect(zoomWindow(state(), 2, null)).toEqual([250, 750]); // around the playhead
    expect(zoomWindow(state([250, 750]), 0.5, null)).toBeNull();
    expect(zoomWindow(state([0, 6]), 4, 100)).toEqual([0, 5]); // at least 5 ms
  });

  it('pans by the pointer move in window units, inside the domain; nothing to pan when all is shown', () => {
    expect(panWindow(state([200, 400]), [200, 400], -100)).toEqual([220, 420]);
    expect(panWindow(state([200, 400]), [200, 400], 5000)).toEqual([0, 200]);
    expect(panWindow(state(), [0, 1000], 50)).toBeUndefined();
  });

  it('on the svg: Ctrl+wheel zooms, a background drag pans, a background click seeks, other targets are ignored', () => {
    const svg = new FakeElement({ left: 10 });
    const bg = new FakeElement({ classes: ['tl-lane-bg'], parent: svg });
    const span = new FakeElement({ parent: svg });
    let visible: readonly [number, number] = [0, 1000];
    const views: ViewWindow[] = [];
    const clicks: number[] = [];
    const pz = XYPanZoom({ getState: () => state(visible), onView: (v) => (views.push(v), (visible = v ?? [0, 1000])), onClick: (px) => clicks.push(px) });
    pz.update({ svg: asElement(svg) });

    const plain = svg.dispatch('wheel', { ctrlKey: false, metaKey: false, deltaY: -250, clientX: 310 });
    expect(plain.defaultPrevented).toBe(false);
    expect(views).toEqual([]);
    const wheel = svg.dispatch('wheel', { ctrlKey: true, metaKey: false, deltaY: -250, clientX: 10 + 100 + 200 });
    expect(wheel.defaultPrevented).toBe(true);
    expect(views).toEqual([[100, 600]]);

    bg.dispatch('pointerdown', { button: 0, pointerId: 1, clientX: 500 });
    expect(bg.captured).toEqual([1]);
    bg.dispatch('pointermove', { pointerId: 1, clientX: 502 }); // under 4 px: not yet a pan
    expect(views).toHaveLength(1);
    bg.dispatch('pointermove', { pointerId: 1, clientX: 400 });
    expect(views[1]).toEqual([150, 650]);
    bg.dispatch('pointerup', { pointerId: 1, clientX: 400 });
    expect(clicks).toEqual([]);

    bg.dispatch('pointerdown', { button: 0, pointerId: 2, clientX: 333 });
    bg.dispatch('pointerup', { pointerId: 2, clientX: 334 });
    expect(clicks).toEqual([324]);

    span.dispatch('pointerdown', { button: 0, pointerId: 3, clientX: 300 });
    span.dispatch('pointermove', { pointerId: 3, clientX: 100 });
    span.dispatch('pointerup', { pointerId: 3, clientX: 100 });
    expect(views).toHaveLength(2);
    expect(clicks).toHaveLength(1);

    pz.fit();
    expect(views[2]).toBeNull();
    pz.destroy();
    expect(svg.listenerCount()).toBe(0);
  });
});
