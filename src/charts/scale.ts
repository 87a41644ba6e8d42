import { ticks as d3ticks } from 'd3-array';

/**
 * A linear time scale (ms → px) with the parts of d3-scale's `scaleLinear` the charts use:
 * call, invert, domain, range, ticks, tickFormat and copy (d3-axis accepts it as a scale).
 * Kept local because `scaleLinear` pulls d3-interpolate, d3-color and d3-format into the bundle
 * (~8 KB gzip) for features a numeric time axis never needs; tick placement is d3-array's.
 */
export interface LinearScale {
  (value: number): number;
  invert(px: number): number;
  domain(): [number, number];
  range(): [number, number];
  ticks(count?: number): number[];
  tickFormat(count?: number, specifier?: string): (d: number) => string;
  copy(): LinearScale;
}

export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const scale = ((v: number) => (k === 0 ? (r0 + r1) / 2 : r0 + (v - d0) * k)) as LinearScale;
  scale.invert = (px: number) => (k === 0 ? d0 : d0 + (px - r0) / k);
  scale.domain = () => [d0, d1];
  scale.range = () => [r0, r1];
  scale.ticks = (count = 10) => d3ticks(d0, d1, count);
  scale.tickFormat = () => (d: number) => String(d);
  scale.copy = () => linearScale(domain, range);
  return scale;
}
