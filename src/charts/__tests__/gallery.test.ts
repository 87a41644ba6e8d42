import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlJsNode } from '../../db/node';
import { memoryOpener } from '../../db/sqljs';
import { flowLanes, flowMarks, flowSeries } from '../../labs/flow/flowMarks';
import { ledgerLanes, ledgerMarks } from '../../labs/ledger/marks';
import { racesMarks, racesStatic } from '../../labs/races/timelineMarks';
import { resilienceView } from '../../labs/resilience/marks';
import { loadBuiltinScenarios } from '../../sim/__tests__/builtinScenarios';
import { replayFlow } from '../../sim/flow';
import type { LabId } from '../../sim/labIds';
import { replayLedger } from '../../sim/ledger';
import { replayRaces } from '../../sim/races';
import { replayResilience } from '../../sim/resilience';
import type { Scenario } from '../../sim/types';
import { Timeline } from '../Timeline';
import type { TimelineLane, TimelineMark } from '../timelineTypes';

/**
 * The gallery: every built-in scenario of every lab drawn by the timeline (server-rendered at the
 * chart's default 900 px width, the playhead at the end of the range, so every mark is reached) and
 * compared with its checked-in SVG in `src/charts/__gallery__/<lab>/<scenario>.svg`. A change to the
 * drawing — a mark builder's or the chart's — shows as a diff of those files. The time axis is drawn
 * by d3-axis in the browser and is not in the files. Re-record with `npm run gallery`
 * (GALLERY_UPDATE=1); open a file in a browser to look at it: it links the app's real stylesheets
 * (`src/app/app.css` for the theme's custom properties, `src/charts/timeline.css` for the chart), so
 * the gallery never holds a copy of them.
 */

const GALLERY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../__gallery__');
const UPDATE = process.env.GALLERY_UPDATE === '1';

/** The playhead range the stores use (`store/playback.ts` timeRangeEnd): the last time plus 6%, rounded up to two digits. */
function rangeEnd(lastMs: number): number {
  if (lastMs <= 0) return 1000;
  const padded = lastMs * 1.06;
  const magnitude = Math.pow(10, Math.floor(Math.log10(padded)) - 1);
  return Math.ceil(padded / magnitude) * magnitude;
}

const lastAt = (trace: { endAt: number }, scenario: Scenario) => Math.max(trace.endAt, ...scenario.events.map((e) => e.at));

interface Drawing {
  lanes: readonly TimelineLane[];
  marks: readonly TimelineMark[];
  endMs: number;
}

let openDb: (() => ReturnType<ReturnType<typeof memoryOpener>>) | null = null;

const DRAW: Record<LabId, (s: Scenario) => Drawing> = {
  races(s) {
    const trace = replayRaces(s);
    const endMs = rangeEnd(lastAt(trace, s));
    const st = racesStatic(trace);
    return { lanes: st.layout.lanes, marks: racesMarks(st, trace, endMs), endMs };
  },
  ledger(s) {
    const trace = replayLedger(s, openDb!);
    const endMs = rangeEnd(lastAt(trace, s));
    return { lanes: ledgerLanes(trace), marks: ledgerMarks(trace, endMs), endMs };
  },
  flow(s) {
    const trace = replayFlow(s);
    // As the flow store: the horizon, or the last time plus 5% rounded to 10 ms, at least 100 ms.
    const horizon = (s.config as { horizonMs?: number }).horizonMs ?? 0;
    const last = lastAt(trace, s);
    const endMs = Math.max(100, Math.min(horizon || last, Math.ceil((last * 1.05) / 10) * 10) || 100);
    return { lanes: flowLanes(trace), marks: flowMarks(trace, flowSeries(trace), endMs, endMs), endMs };
  },
  resilience(s) {
    const trace = replayResilience(s);
    const endMs = rangeEnd(lastAt(trace, s));
    const view = resilienceView(trace, endMs, 'auto');
    return { lanes: view.lanes, marks: view.marks, endMs };
  },
};

/** The stylesheets a gallery file links, relative to `__gallery__/<lab>/`: the theme, then the chart's own. */
export const GALLERY_STYLESHEETS = ['../../../app/app.css', '../../timeline.css'] as const;

/** The chart's <svg> as a standalone file: one element a line, the namespace added, linked to the app's stylesheets. */
export function gallerySvg(d: Drawing, title: string): string {
  const html = renderToStaticMarkup(
    createElement(Timeline, { lanes: d.lanes, marks: d.marks, domain: [0, d.endMs], cursorMs: d.endMs, label: title, onSeek: () => {}, resetKey: 0 }),
  );
  const svg = /<svg[\s\S]*<\/svg>/.exec(html)?.[0];
  if (!svg) throw new Error('gallery: the timeline rendered no <svg>');
  const links = GALLERY_STYLESHEETS.map((href) => `<?xml-stylesheet href="${href}" type="text/css"?>\n`).join('');
  return `${links}${svg.replace('<svg ', '<svg xmlns="http://www.w3.org/2000/svg" ').replace(/></g, '>\n<')}\n`;
}

const LABS: LabId[] = ['races', 'ledger', 'flow', 'resilience'];

beforeAll(async () => {
  openDb = memoryOpener(await loadSqlJsNode());
});

it('gallery files link stylesheets that exist (the real ones, no copy)', () => {
  for (const href of GALLERY_STYLESHEETS) expect(existsSync(path.resolve(GALLERY, 'races', href)), href).toBe(true);
  expect(existsSync(path.join(GALLERY, 'gallery.css'))).toBe(false);
});

describe('timeline gallery: every built-in scenario of every lab, drawn and compared', () => {
  for (const lab of LABS) {
    const builtins = loadBuiltinScenarios(lab);
    it(`${lab}: one gallery file per built-in scenario, and no stale ones`, () => {
      const dir = path.join(GALLERY, lab);
      if (UPDATE) return;
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.svg')).sort() : [];
      expect(files).toEqual(builtins.map((b) => b.file.replace(/\.json$/, '.svg')).sort());
    });
    for (const { file, scenario } of builtins) {
      it(`${lab}/${file}`, () => {
        const drawing = DRAW[lab](scenario);
        expect(drawing.marks.length).toBeGreaterThan(0);
        const svg = gallerySvg(drawing, `Timeline of ${scenario.title}`);
        const target = path.join(GALLERY, lab, file.replace(/\.json$/, '.svg'));
        if (UPDATE) {
          mkdirSync(path.dirname(target), { recursive: true });
          writeFileSync(target, svg);
          return;
        }
        expect(existsSync(target), `${path.relative(process.cwd(), target)} is missing: run npm run gallery`).toBe(true);
        expect(svg, `the drawing of ${lab}/${file} changed: look at the diff, then npm run gallery`).toBe(readFileSync(target, 'utf8'));
      });
    }
  }
});
