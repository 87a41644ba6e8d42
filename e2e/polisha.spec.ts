import { expect, test } from './fixtures';
import { TrafficDriver } from './pages/lab';
import { FlowPage } from './pages/flow';
import { ResiliencePage } from './pages/resilience';

/** Issue 9's cross-lab findings from the last new-user walkthroughs, each with the browser check that failed before its fix. */
const SHOTS = '/tmp/polisha-shots';
const WIDTHS = [1280, 390] as const;

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ lab: page }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    });

    test('flow herd: when the verdict names another strategy, a line says which measures it uses and where the lesson\'s SHA-256 jitter ranks', async ({ lab: page }) => {
      const flow = await new FlowPage(page).open('F3-restart-herd');
      const herd = flow.herd;
      await expect(herd.table).toBeVisible({ timeout: 30_000 });
      await expect(herd.verdict).not.toContainText('lesson SHA-256 jitter is');
      const peaks = (await herd.peaks.allTextContents()).map((t) => Number(t.replace(/,/g, '')));
      const lessonPeak = await herd.cell('lesson-sha256', 'peak').textContent();
      const rank = 1 + peaks.filter((p) => p < Number(lessonPeak!.replace(/,/g, ''))).length;
      expect(rank, 'the lesson strategy is not the lowest peak in the default herd').toBeGreaterThan(1);
      const ord = rank === 2 ? '2nd' : rank === 3 ? '3rd' : `${rank}th`;
      await expect(herd.lessonRank).toHaveText(
        new RegExp(`^Why the lesson's SHA-256 jitter does not win here: the sentence above ranks by the server's load — attempts in the busiest second, then attempts in all — and the lesson's strategy comes ${ord} of ${peaks.length} on the peak \\(${lessonPeak}/s\\)`),
      );
      await expect(herd.lessonRank).toContainText('Its delays start at 250 ms and double up to 8,000 ms whatever the base and cap above (1,000 and 32,000 ms)');
      await herd.tableBox.screenshot({ path: `${SHOTS}/herd-lesson-rank-${width}.png` });
      // Only the lesson strategy ticked beside one it beats: no note.
      await herd.setStrategy('exponential', false);
      await herd.setStrategy('full-jitter', false);
      await herd.setStrategy('fixed');
      await expect(herd.row('fixed')).toBeVisible({ timeout: 30_000 });
      await expect(herd.lessonRank).toHaveCount(0);
    });

    test('flow: the heading is the scenario title, like the other labs', async ({ lab: page }) => {
      const flow = await new FlowPage(page).open('F3-restart-herd');
      await expect(flow.heading).toHaveText('F3 · 50 clients come back after a restart');
      await flow.intro.screenshot({ path: `${SHOTS}/flow-heading-${width}.png` });
      await flow.picker.selectOption('F1-stalled-subscriber');
      await expect(flow.heading).toHaveText('F1 · A subscriber stalls for 59 s at 100 events/s');
    });

    test('flow F3: the description says what the page shows as written (spread 0 ms), then the fix\'s figures', async ({ lab: page }) => {
      const flow = await new FlowPage(page).open('F3-restart-herd');
      await expect(flow.scenarioSummary).toContainText('As written (reconnect jitter 0 ms, the bug) fifty clients reconnect exactly 5000 ms after the drop: all fifty land in the same millisecond, spread 0 ms.');
      await flow.toEnd();
      await expect(flow.counter('spread')).toHaveText('0');
      await flow.intro.screenshot({ path: `${SHOTS}/flow-F3-intro-${width}.png` });
      await flow.labPage.screenshot({ path: `${SHOTS}/flow-F3-as-written-${width}.png` });
      // The fix the description names: the lesson's second row.
      await expect(flow.scenarioSummary).toContainText('The fix is the lesson\'s second row (“show it”, or Reconnect jitter ± 1000 ms): with seed 42 they land over 4042–5901 ms');
      await flow.pressInLesson(1, 'show it');
      await flow.toEnd();
      await expect(flow.fleetVerdict).toContainText('between 4042 and 5901 ms (spread 1859 ms), at most 5 in one 100 ms bucket');
    });

    test('a corrupted flow link quotes what was wrong visibly: invisible characters as \\u codes', async ({ lab: page }) => {
      const flow = new FlowPage(page);
      await page.goto('about:blank');
      await page.goto('./#/flow?scenario=AAAA'); // three NUL bytes once decoded
      await expect(flow.banner).toContainText('showing "F1 · ', { timeout: 20_000 });
      const items = await flow.bannerItems.allTextContents();
      const line = items.find((t) => t.startsWith('scenario (in the link): not valid JSON'));
      expect(line).toBeDefined();
      expect(line).toContain('\\u0000');
      expect(line).toContain('(\\u…: an invisible character, written as its code)');
      expect(line).not.toMatch(/[\u0000-\u001f]/);
      await flow.banner.screenshot({ path: `${SHOTS}/flow-corrupted-link-${width}.png` });
    });

    test('traffic, bare JSON-RPC lines: the timing consequence, an axis fitted to 5 ms, the revision said once, Open call only for calls that can become a scenario, and no clock to play', async ({ lab: page }) => {
      const traffic = await new TrafficDriver(page).open();
      await expect(traffic.intro).toContainText('It has no clock to play: open a tools/call as a races scenario to play it step by step and edit it.');
      await traffic.paste(
        [
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
          '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
          '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_query","arguments":{}}}',
          '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"stop"}}',
          '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}',
        ].join('\n'),
      );
      await expect(traffic.banner).toHaveCount(0);
      await expect(traffic.counts).toContainText('5 messages');
      await expect(traffic.timeAssumption).toHaveText(/^no timestamps: 1 ms per line/);
      await expect(traffic.timeConsequence).toHaveText(
        'So the timing rules count lines, not time: a response or progress counts as late after its cancellation only when it comes more than 1,000 lines after it (the 1,000 ms latency allowance). A recording shorter than that never trips them; the other rules (ids, order, message shape) still apply. Add a "ts" to each line to check timing.',
      );
      await expect(traffic.revision).toHaveText('2025-11-25, from the initialize handshake');
      // The axis: whole ms, ending just after the data (4 ms), not at 100 ms.
      const ticks = (await traffic.axisTicks.allTextContents()).map(Number);
      expect(ticks.length).toBeGreaterThan(1);
      expect(Math.max(...ticks)).toBeLessThanOrEqual(11);
      expect(Math.max(...ticks)).toBeGreaterThanOrEqual(4);
      await expect(traffic.noPlayback).toContainText('there is no clock to play and nothing to drag here');
      await expect(traffic.noPlayback).toContainText('press “Open call #… as a scenario” under What if: the races lab opens it on its own timeline');
      await traffic.summary.screenshot({ path: `${SHOTS}/traffic-summary-${width}.png` });
      await traffic.timeline.screenshot({ path: `${SHOTS}/traffic-timeline-${width}.png` });
      // initialize cannot become a scenario: no button for it, a line says why.
      await traffic.selectRow(0);
      await expect(traffic.openCallButton).toBeDisabled();
      await expect(traffic.openCallButton).toHaveText('Open the selected call');
      await expect(traffic.openCallNote).toHaveText('Call #1 is initialize: only tools/call and subscriptions/listen calls can become a scenario (the races lab replays those) — select one of them.');
      await traffic.whatIf.screenshot({ path: `${SHOTS}/traffic-initialize-${width}.png` });
      // The tools/call can.
      await traffic.selectRow(2);
      await expect(traffic.openCallButton).toBeEnabled();
      await expect(traffic.openCallButton).toHaveText('Open call #7 as a scenario');
      await expect(traffic.openCallNote).toHaveCount(0);
    });

    test('resilience article: the two attempt counts say what each is, in place', async ({ lab: page }) => {
      const res = await new ResiliencePage(page).open('B1-concurrent-failures');
      const { seeds } = res;
      if (width === 390) await seeds.summary.click(); // closed below 700 px
      await expect(seeds.article('article-attempts')).toHaveText('20 in all, 18 during the outage');
      await expect(seeds.article('corrected-attempts')).toHaveText('13 in all, 6 during the outage');
      await seeds.article('rows').screenshot({ path: `${SHOTS}/article-attempts-${width}.png` });
    });
  });
}
