import { axisBottom, axisLeft } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { line } from 'd3-shape';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useElementWidth } from '../../charts/hooks';

/** One line of a `SeedPlot`: points in data units, a CSS class for its stroke, optionally dashed. */
export interface PlotLine {
  id: string;
  label: string;
  points: readonly (readonly [number, number])[];
  className: string;
  dashed?: boolean;
}

/** A shaded x range (e.g. "below the floor") or a vertical / horizontal guide. */
export interface PlotBand {
  from: number;
  to: number;
  label: string;
  className: string;
}
export interface PlotGuide {
  at: number;
  label: string;
  className: string;
  axis: 'x' | 'y';
}

/** A row above the plot: the x ranges where something holds, with its name. */
export interface PlotLane {
  id: string;
  label: string;
  className: string;
  bands: readonly { from: number; to: number }[];
}

const LANE_H = 16;

/**
 * A small line plot with d3 scales and axes (d3-scale, d3-axis, d3-shape), sized to its container
 * (no sideways scroll on a phone). `cursorX` draws the reader's position. The SVG is an image with
 * `label` as its name; each panel puts the same numbers in text beside it.
 */
export function SeedPlot({ label, lines, bands = [], lanes = [], guides = [], xDomain, yDomain, xLabel, yLabel, xFormat, yFormat, cursorX, height = 220, testId, children }: {
  label: string;
  lines: readonly PlotLine[];
  bands?: readonly PlotBand[];
  /** Rows drawn above the plot on the same x scale (e.g. when each tier is in force), top to bottom. */
  lanes?: readonly PlotLane[];
  guides?: readonly PlotGuide[];
  xDomain: [number, number];
  yDomain: [number, number];
  xLabel: string;
  yLabel: string;
  xFormat(v: number): string;
  yFormat(v: number): string;
  cursorX?: number;
  height?: number;
  testId: string;
  children?: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  const width = Math.min(760, useElementWidth(box));
  const lanesH = lanes.length * (LANE_H + 2);
  const m = { top: 20 + lanesH + (lanes.length ? 6 : 0), right: 12, bottom: 34, left: lanes.length ? 58 : 48 };
  const w = width - m.left - m.right;
  const h = height - 20 - m.bottom;
  const x = scaleLinear().domain(xDomain).range([0, w]);
  const y = scaleLinear().domain(yDomain).range([h, 0]).nice();
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const ticks = Math.max(2, Math.floor(w / 70));
  useLayoutEffect(() => {
    if (xAxis.current) select(xAxis.current).call(axisBottom<number>(x).ticks(ticks).tickFormat((v) => xFormat(Number(v))).tickSizeOuter(0));
    if (yAxis.current) select(yAxis.current).call(axisLeft<number>(y).ticks(5).tickFormat((v) => yFormat(Number(v))).tickSizeOuter(0));
  });
  const path = line<readonly [number, number]>()
    .x((p) => x(p[0]))
    .y((p) => y(p[1]));
  return (
    <div ref={box} className="seed-plot" data-testid={testId}>
      <svg width={width} height={height + m.top - 20} role="img" aria-label={label}>
        {lanes.map((lane, li) => (
          <g key={lane.id} transform={`translate(${m.left},${4 + li * (LANE_H + 2)})`} data-lane={lane.id}>
            <rect x={0} width={w} height={LANE_H} className="seed-lane-bg" />
            {lane.bands.map((b, i) => (
              <rect key={i} x={x(b.from)} width={Math.max(1, x(b.to) - x(b.from))} height={LANE_H} className={lane.className}>
                <title>{`${lane.label}: ${b.from}–${b.to}`}</title>
              </rect>
            ))}
            <text x={-4} y={LANE_H - 4} textAnchor="end" className="seed-lane-label">
              {lane.label}
            </text>
          </g>
        ))}
        <g transform={`translate(${m.left},${m.top})`}>
          {bands.map((b, i) => (
            <rect key={`${b.label}-${i}`} x={x(Math.max(xDomain[0], b.from))} width={Math.max(0, x(Math.min(xDomain[1], b.to)) - x(Math.max(xDomain[0], b.from)))} y={0} height={h} className={b.className}>
              <title>{b.label}</title>
            </rect>
          ))}
          {guides.map((g, i) =>
            g.axis === 'x' ? (
              <line key={`${g.label}-${i}`} x1={x(g.at)} x2={x(g.at)} y1={0} y2={h} className={g.className}>
                <title>{g.label}</title>
              </line>
            ) : (
              <line key={`${g.label}-${i}`} x1={0} x2={w} y1={y(g.at)} y2={y(g.at)} className={g.className}>
                <title>{g.label}</title>
              </line>
            ),
          )}
          {lines.map((l) => (
            <path key={l.id} d={path(l.points) ?? ''} className={`seed-line ${l.className}`} strokeDasharray={l.dashed ? '5 4' : undefined} data-series={l.id}>
              <title>{l.label}</title>
            </path>
          ))}
          {cursorX !== undefined && <line x1={x(cursorX)} x2={x(cursorX)} y1={0} y2={h} className="seed-cursor" />}
          <g ref={xAxis} transform={`translate(0,${h})`} className="seed-axis" />
          <g ref={yAxis} className="seed-axis" />
          <text x={w} y={h + 30} textAnchor="end" className="seed-axis-label">
            {xLabel}
          </text>
          <text x={-m.left + 2} y={-8} className="seed-axis-label">
            {yLabel}
          </text>
        </g>
      </svg>
      {children}
    </div>
  );
}

/** A legend: one swatch per line. */
export function PlotLegend({ items }: { items: readonly { label: string; className: string; dashed?: boolean }[] }) {
  return (
    <ul className="seed-legend">
      {items.map((i) => (
        <li key={i.label}>
          <svg width="22" height="10" aria-hidden="true">
            <line x1="1" x2="21" y1="5" y2="5" className={`seed-line ${i.className}`} strokeDasharray={i.dashed ? '5 4' : undefined} />
          </svg>
          {i.label}
        </li>
      ))}
    </ul>
  );
}
