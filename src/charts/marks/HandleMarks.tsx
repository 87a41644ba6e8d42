import { forwardRef, memo, useLayoutEffect, useRef } from 'react';
import { formatTime } from '../format';
import type { PlacedHandle } from '../labels';
import { HANDLE_R, rowBox, rowCenterY, type Layout } from '../layout';
import type { HandleMark, Tone } from '../timelineTypes';
import { Chunked, px } from './Chunked';
import { toneClass } from './tone';

/** The path of a handle's glyph of radius `r`, centred on `cx`,`cy` (default 0,0). */
export function shapePath(shape: HandleMark['shape'], r: number, cx = 0, cy = 0): string {
  const X = (v: number) => px(cx + v);
  const Y = (v: number) => px(cy + v);
  switch (shape) {
    case 'diamond':
      return `M${X(0)},${Y(-r)}L${X(r)},${Y(0)}L${X(0)},${Y(r)}L${X(-r)},${Y(0)}Z`;
    case 'square':
      return `M${X(-r * 0.8)},${Y(-r * 0.8)}H${X(r * 0.8)}V${Y(r * 0.8)}H${X(-r * 0.8)}Z`;
    case 'triangle':
      return `M${X(0)},${Y(-r)}L${X(r)},${Y(r * 0.8)}H${X(-r)}Z`;
    case 'circle':
    default:
      return `M${X(r)},${Y(0)}A${r},${r} 0 1 1 ${X(-r)},${Y(0)}A${r},${r} 0 1 1 ${X(r)},${Y(0)}Z`;
  }
}

interface HandleViewProps {
  id: string;
  x: number;
  y: number;
  at: number;
  maxMs: number;
  shape: HandleMark['shape'];
  tone: Tone;
  ariaLabel: string;
  testId?: string;
  title?: string;
  ignored: boolean;
  selected: boolean;
  future: boolean;
  helpId?: string;
}

/**
 * A handle: a focusable slider (`data-handle`, `data-at` are what the drag and keyboard behaviours
 * read). Positions are in its children's coordinates (no `transform` per handle); its ring, a
 * transparent-filled circle, is also what the pointer grabs (radius HANDLE_R + 4, plus its 2 px stroke).
 */
const HandleView = memo(function HandleView(p: HandleViewProps) {
  return (
    <g
      className={`tl-handle ${toneClass(p.tone)}${p.ignored ? ' is-ignored' : ''}${p.selected ? ' is-selected' : ''}${p.future ? ' is-future' : ''}`}
      data-handle={p.id}
      data-at={p.at}
      data-testid={p.testId}
      tabIndex={0}
      role="slider"
      aria-label={p.ariaLabel}
      aria-valuemin={0}
      aria-valuemax={p.maxMs}
      aria-valuenow={p.at}
      aria-valuetext={formatTime(p.at)}
      aria-describedby={p.helpId}
    >
      <title>{p.title ?? p.ariaLabel}</title>
      <circle className="tl-handle-ring" cx={px(p.x)} cy={px(p.y)} r={HANDLE_R + 4} />
      <path className="tl-handle-shape" d={shapePath(p.shape, HANDLE_R, p.x, p.y)} />
      {p.ignored && <line className="tl-strike" x1={px(p.x - HANDLE_R - 2)} y1={px(p.y + HANDLE_R + 2)} x2={px(p.x + HANDLE_R + 2)} y2={px(p.y - HANDLE_R - 2)} />}
    </g>
  );
});

/** A handle's text (outside the focusable element, so the handle's box is centred on its shape). */
const HandleLabelView = memo(function HandleLabelView(p: { x: number; y: number; labelY: number; label: string | null; flip: boolean; ignored: boolean; future: boolean; tieOrder: number | null }) {
  return (
    <g className={p.future ? 'is-future' : undefined}>
      {p.tieOrder !== null && (
        <text className="tl-tie" x={px(p.x - HANDLE_R - 3)} y={px(p.y - HANDLE_R + 1)} textAnchor="end">
          {p.tieOrder}
        </text>
      )}
      {p.label !== null && (
        <text className={`tl-handle-label${p.ignored ? ' is-struck' : ''}`} x={px(p.x + (p.flip ? HANDLE_R : -HANDLE_R + 1))} y={px(p.labelY - HANDLE_R - 4)} textAnchor={p.flip ? 'end' : 'start'}>
          {p.label}
        </text>
      )}
    </g>
  );
});

/** Handle labels and tie numbers (decorative, no pointer events: the handles carry their names). */
export function HandleLabelLayer({ handles, layout, clip }: { handles: readonly PlacedHandle[]; layout: Layout; clip: string }) {
  return (
    <g className="tl-handle-labels" aria-hidden="true" pointerEvents="none" clipPath={clip}>
      <Chunked
        items={handles}
        deps={[layout]}
        render={(h) => {
          if (h.label === null && h.tieOrder === null) return null;
          const cy = rowCenterY(rowBox(layout, h.mark.lane, h.mark.row));
          return <HandleLabelView key={h.mark.id} x={h.x} y={cy + h.dy} labelY={cy + h.labelDy} label={h.label} flip={h.flip} ignored={!!h.mark.ignored} future={!!h.mark.future} tieOrder={h.tieOrder} />;
        }}
      />
    </g>
  );
}

interface HandleLayerProps {
  handles: readonly PlacedHandle[];
  layout: Layout;
  clip: string;
  maxMs: number;
  selectedId?: string | null;
  helpId?: string;
}

/**
 * The handles layer: the element the drag and keyboard behaviours attach to (delegated on
 * `[data-handle]`). Drawn in chunks (`Chunked`); when a change moves the focused handle into
 * another chunk (a reorder), its element is made anew and focus is given back to it.
 */
export const HandleLayer = forwardRef<SVGGElement, HandleLayerProps>(function HandleLayer({ handles, layout, clip, maxMs, selectedId, helpId }, ref) {
  const focused = useRef<Element | null>(null);
  const layer = useRef<SVGGElement | null>(null);
  useLayoutEffect(() => {
    const f = focused.current;
    if (!f || f.isConnected || !layer.current) return;
    focused.current = null;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const id = f.getAttribute('data-handle');
    const again = [...layer.current.querySelectorAll<SVGGElement>('[data-handle]')].find((el) => el.getAttribute('data-handle') === id);
    again?.focus();
  });
  return (
    <g
      ref={(el) => {
        layer.current = el;
        if (typeof ref === 'function') ref(el);
        else if (ref) ref.current = el;
      }}
      className="tl-handles"
      clipPath={clip}
      onFocus={(e) => {
        if ((e.target as Element).hasAttribute('data-handle')) focused.current = e.target as Element;
      }}
      onBlur={(e) => {
        // Focus that left on purpose stays gone; a blur caused by the element's removal does not count.
        const el = e.target as Element;
        queueMicrotask(() => {
          if (el.isConnected && focused.current === el) focused.current = null;
        });
      }}
    >
      <Chunked
        items={handles}
        deps={[layout, maxMs, helpId]}
        chunkDep={(items, from, to) => {
          for (let i = from; i < to; i++) if (items[i].mark.id === selectedId) return selectedId;
          return null;
        }}
        render={(h) => (
          <HandleView
            key={h.mark.id}
            id={h.mark.id}
            x={h.x}
            y={rowCenterY(rowBox(layout, h.mark.lane, h.mark.row)) + h.dy}
            at={h.mark.at}
            maxMs={maxMs}
            shape={h.mark.shape}
            tone={h.mark.tone}
            ariaLabel={h.mark.ariaLabel}
            testId={h.mark.testId}
            title={h.mark.title}
            ignored={!!h.mark.ignored}
            selected={selectedId === h.mark.id}
            future={!!h.mark.future}
            helpId={helpId}
          />
        )}
      />
    </g>
  );
});
