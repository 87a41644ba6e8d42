import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Timeline } from '../Timeline';
import type { TimelineLane, TimelineMark, TimelineProps } from '../timelineTypes';

const lanes: TimelineLane[] = [{ id: 'conn-A', label: 'connection A', rows: [{ id: 'name', height: 16 }, { id: 'steps', height: 40 }] }];
const render = (p: Partial<TimelineProps>) =>
  renderToStaticMarkup(createElement(Timeline, { lanes, marks: [], domain: [0, 200], cursorMs: 0, label: 'chart', onSeek: () => {}, ...p }));
const step = (id: string, at: number, tieOrder?: number): TimelineMark => ({ kind: 'handle', id, lane: 'conn-A', row: 'steps', at, shape: 'circle', tone: 'server', label: id, group: 'step', ariaLabel: `connection A ${id} at ${at} ms`, testId: `handle-${id}`, tieOrder });

describe('<Timeline> as rendered', () => {
  it('draws same-millisecond steps of one connection at different heights, each a focusable slider with its tie number', () => {
    const html = render({ marks: [step('begin', 0), step('read', 50, 1), step('write', 50, 2)] });
    // A handle's centre: its ring's cx, cy (positions are in the handle's coordinates, no transform).
    const at = (id: string) => /<circle class="tl-handle-ring" cx="([-\d.]+)" cy="([-\d.]+)"/.exec(new RegExp(`<g class="tl-handle[^>]*data-handle="${id}"[^>]*>[\\s\\S]*?</g>`).exec(html)![0])!.slice(1).map(Number);
    const [rx, ry] = at('read');
    const [wx, wy] = at('write');
    expect(rx).toBe(wx);
    expect(Math.abs(ry - wy)).toBeGreaterThanOrEqual(6);
    expect(at('begin')[1]).toBe((ry + wy) / 2);
    expect(html.match(/class="tl-tie"/g)).toHaveLength(2);
    expect(html.match(/role="slider"/g)).toHaveLength(3);
  });

  it('shows no bidi control character anywhere it draws or names (labels, titles, accessible names)', () => {
    const rlo = '\u202E';
    const html = render({
      label: `chart ${rlo}evil`,
      lanes: [{ id: 'conn-A', label: `conn${rlo}A`, rows: [{ id: 'steps', height: 40, label: `row\u2066x\u2069` }] }],
      marks: [
        { ...(step('h', 10) as object), label: `call${rlo}1`, ariaLabel: `call\u200F 1`, title: `t\u061C` } as TimelineMark,
        { kind: 'span', id: 's', lane: 'conn-A', row: 'steps', at: 0, to: 20, tone: 'ok', endLabel: `exec\u202Bed`, title: `s\u202A` },
        { kind: 'marker', id: 'm', lane: 'conn-A', row: 'steps', at: 30, tone: 'bad', label: `time\u202Dout` },
        { kind: 'arrow', id: 'a', from: { lane: 'conn-A', row: 'steps', at: 0 }, to: { lane: 'conn-A', row: 'steps', at: 40 }, tone: 'wire', label: `tools/call\u2067`, labelLane: 'conn-A' },
        { kind: 'steps', id: 'n', lane: 'conn-A', row: 'steps', points: [[0, 0]], max: 2, until: 0, tone: 'ok', label: `n\u200E` },
      ],
    });
    expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    for (const text of ['chart evil', 'connA', 'rowx', 'call1', 'call 1', 'execed', 'timeout', 'tools/call']) expect(html).toContain(text);
  });
});
