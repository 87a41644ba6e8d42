import { expect, test } from './fixtures';
import { LabDriver, TrafficDriver } from './pages/lab';
import { FlowPage } from './pages/flow';
import { LedgerPage } from './pages/ledger';
import { ResiliencePage } from './pages/resilience';

/** Leftovers of the last new-user walkthrough (issue 9), each with the browser check that failed before its fix. */
const SHOTS = '/tmp/polish-shots';

test.describe('Walkthrough leftovers', () => {
  test('traffic: bare JSON-RPC lines (no ts, no dir) are read, with directions inferred and the time assumption shown', async ({ lab: page }) => {
    const traffic = await new TrafficDriver(page).open();
    await traffic.paste(
      [
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_query","arguments":{}}}',
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"stop"}}',
        '{"jsonrpc":"2.0","id":7,"result":{"content":[]}}',
      ].join('\n'),
    );
    await expect(traffic.banner).toHaveCount(0);
    await expect(traffic.format).toHaveAttribute('data-format', 'jsonrpc-jsonl');
    await expect(traffic.counts).toContainText('3 messages');
    await expect(traffic.timeAssumption).toHaveText(/^no timestamps: 1 ms per line/);
    await expect(traffic.messageRows).toContainText(['0 ms→ tools/call #7', '1 ms→ cancel #7', '2 ms← result #7']);
    await traffic.summary.screenshot({ path: `${SHOTS}/traffic-plain.png` });

    // Not a transcript at all: the first line is shown as written, with what to give instead.
    await traffic.paste('{"hello": "world"}');
    await expect(traffic.banner).toContainText('the first line is: {"hello": "world"} — give one JSON-RPC message per line');
    await expect(traffic.banner).not.toContainText('\\"');
  });
});

test('flow: 1e20 in the capacity box gets one message in the one voice, not two', async ({ lab: page }) => {
  const flow = await new FlowPage(page).open();
  await flow.capacity.fill('1e20');
  await expect(flow.banner).toBeVisible();
  await expect(flow.bannerItems).toHaveText(['config.capacityEvents: must be at most 1,000,000, got 100000000000000000000 — use a value up to 1,000,000']);
  await flow.banner.screenshot({ path: `${SHOTS}/flow-1e20.png` });
});

test('ledger: a keyboard move that cannot happen says why in the live status line', async ({ lab: page }) => {
  const ledger = await new LedgerPage(page).open('A-race-two-connections');
  const notice = ledger.laneNotice;
  await expect(notice).toHaveAttribute('role', 'status');
  const begin = ledger.event('A-begin');
  await begin.focus();
  await page.keyboard.press('ArrowLeft'); // already at 0 ms
  await expect(notice).toHaveText('A-begin is at 0 ms, the start of the timeline — it cannot move earlier; move the other events later instead');
  await page.keyboard.press('Alt+ArrowRight'); // alone at 0 ms
  await expect(notice).toHaveText(/^A-begin has no event at 0 ms after it to swap with — /);
  // Into its own connection's next step: held back, and the line says why.
  await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(begin).toHaveAttribute('aria-label', 'connection A begin at 10 ms');
  await page.keyboard.press('Shift+ArrowRight');
  await expect(notice).toHaveText(/^connection A's begin stays before its read \(10 ms\): a connection runs its own steps in order/);
  await ledger.laneNotice.screenshot({ path: `${SHOTS}/ledger-notice.png` });
});

test('ledger: on a scenario of client calls, All orders says why it is not available and Chaos runs', async ({ lab: page }) => {
  const ledger = await new LedgerPage(page).open('D-same-key');
  const allOrders = ledger.allOrders;
  await expect(ledger.allOrdersHeading).toBeVisible();
  await expect(allOrders).toHaveAttribute('data-available', 'false');
  await expect(ledger.allOrdersUnavailable).toHaveText(/^Not available for this scenario: All orders interleaves two connections' steps .* — open A or B to explore every interleaving\.$/);
  await allOrders.screenshot({ path: `${SHOTS}/ledger-all-orders-unavailable.png` });
  const chaos = ledger.chaos;
  await chaos.seedsBox.fill('20');
  await chaos.runButton.focus();
  await page.keyboard.press('Enter');
  await expect(chaos.result).toHaveAttribute('data-safety', /^\d+$/, { timeout: 90_000 });
  await expect(chaos.runMessage).toHaveCount(0);
});

test('an import says what it loaded, with Undo (paste and file, races and flow)', async ({ lab: page }) => {
  const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
  const raw = await page.evaluate(() => fetch(new URL('scenarios/races/A-cancel-then-complete.json', document.baseURI)).then((r) => r.json()));
  await races.paste({ ...raw, id: 'mine', title: 'My cancel race' });
  const status = races.importStatus;
  await expect(status).toHaveText('Imported My cancel race — Undo');
  await races.scenarioBar.screenshot({ path: `${SHOTS}/import-status.png` });
  // The Import panel says it too (the scenario bar may be scrolled out of view).
  await expect(races.importPanelLoaded).toHaveText('The pasted scenario is loaded: it is the scenario at the top of the page now (Undo there takes it back).');
  await races.undoImport();
  await expect(races.picker).toHaveValue('A-cancel-then-complete');
  await expect(status).toHaveCount(0);
  // A "Link copied" line does not hide the next import's line.
  await races.copyLinkButton.click();
  await races.paste({ ...raw, id: 'mine-2', title: 'My second race' });
  await expect(status).toHaveText('Imported My second race — Undo');

  const flow = await new LabDriver(page, 'flow').open();
  const flowRaw = await page.evaluate(() => fetch(new URL('scenarios/flow/F1-stalled-subscriber.json', document.baseURI)).then((r) => r.json()));
  await flow.fileInput.setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ ...flowRaw, id: 'mine-flow', title: 'My flow' })) });
  await expect(status).toHaveText('Imported My flow — Undo');
});

test.describe('labels that crowded (walkthrough)', () => {
  test('resilience B3: one "40 requests" label on the client lane instead of "request request request"', async ({ lab: page }) => {
    const res = await new ResiliencePage(page).open('B3-retry-budget');
    const labels = res.marks.handleLabels;
    const texts = await labels.allTextContents();
    expect(texts.filter((t) => /^request/.test(t))).toEqual([]);
    expect(texts.filter((t) => /^\d+ requests$/.test(t))).toHaveLength(1);
    await res.timelinePanel.screenshot({ path: `${SHOTS}/resilience-B3-labels.png` });
  });

  test('resilience T1: the task status label "cancelled" sits below its bar, not on it', async ({ lab: page }) => {
    const res = await new ResiliencePage(page).open('T1-abort-before-task-id');
    const label = res.marks.spanLabel(/^cancelled$/);
    const bar = res.marks.spanBarOf(label);
    await res.timelinePanel.screenshot({ path: `${SHOTS}/resilience-T1-labels.png` });
    const lb = (await label.boundingBox())!;
    const bb = (await bar.boundingBox())!;
    // The text box starts at the font's ascent, above the tallest letters; how far above depends on the font the
    // machine has (about 2 px at 11 px in the fallback font, 3.4 px in Noto Sans): measure it in the page.
    const inkGap = await label.evaluate((el) => {
      const cs = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const m = ctx.measureText(el.textContent ?? '');
      return m.fontBoundingBoxAscent - m.actualBoundingBoxAscent;
    });
    expect(lb.y + inkGap, 'the letters\' top below the bar bottom').toBeGreaterThanOrEqual(bb.y + bb.height - 0.5);
  });

  test('flow at 390 px: the queue chart is drawn at its shown width, so its text stays readable', async ({ lab: page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const flow = await new FlowPage(page).open();
    const tick = flow.queueTicks.first();
    const box = (await tick.boundingBox())!;
    expect(box.height, 'tick text height (px)').toBeGreaterThanOrEqual(10);
    const overflow = await flow.sidewaysOverflow();
    expect(overflow).toBeLessThanOrEqual(0);
    await flow.queueChart.screenshot({ path: `${SHOTS}/flow-queue-390.png` });
  });
});

test('flow herd: one sentence says which strategy is better, from the table\'s own figures', async ({ lab: page }) => {
  const flow = await new FlowPage(page).open();
  await expect(flow.herd.table).toBeVisible({ timeout: 30_000 });
  const peaks = (await flow.herd.peaks.allTextContents()).map((t) => Number(t.replace(/,/g, '')));
  expect(peaks.length).toBeGreaterThan(1);
  const lowest = Math.min(...peaks).toLocaleString('en-US');
  const verdict = flow.herd.verdict;
  await expect(verdict).toHaveText(/^Here .* (is the gentlest on the server|has the lowest peak)/);
  await expect(verdict).toContainText(`${lowest}/s at its peak`);
  await flow.herd.tableBox.screenshot({ path: `${SHOTS}/herd-verdict.png` });
});

test('resilience at 390 px: the seed panels start closed under a summary that says what the documents are; the choice is kept', async ({ lab: page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const res = await new ResiliencePage(page).open('S2-timeouts-cancel');
  const group = res.seeds.group;
  await expect(group).not.toHaveAttribute('open');
  await expect(res.seeds.checklist).toBeHidden();
  await expect(res.seeds.intro).toHaveText(/^The lab was seeded from two documents: a postmortem of a retry storm .* and an article whose retryWithBackoff and CircuitBreaker code is shown as written and corrected/);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  console.log(`resilience S2 page height at 390 px, seed panels closed: ${height} px`);
  expect(height).toBeLessThan(12_160);
  await res.seeds.summary.screenshot({ path: `${SHOTS}/seed-summary-390.png` });
  await res.seeds.summary.click();
  await expect(res.seeds.checklist).toBeVisible();
  await page.reload();
  await expect(res.picker).toBeVisible({ timeout: 20_000 });
  await expect(res.seeds.group).toHaveAttribute('open', '');
  // At 1280 px a fresh tab shows them open.
  const wide = await page.context().newPage();
  await wide.setViewportSize({ width: 1280, height: 800 });
  const wideRes = await new ResiliencePage(wide).open('S2-timeouts-cancel');
  await expect(wideRes.seeds.group).toHaveAttribute('open', '');
  await wide.close();
});
