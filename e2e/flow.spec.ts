import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FlowPage } from './pages/flow';

/** This spec's page object (e2e/pages/lab.ts) on `page`. */
const kit = (page: Page) => new FlowPage(page);

const playhead = (page: Page) => kit(page).playhead;

/** Opens built-in `id` with the playhead at the end (FlowPage.openAtEnd checks it opened at 0). */
async function openFlow(page: Page, id: string) {
  await kit(page).openAtEnd(id);
}

/** Jumps the playhead to the end of the range (the counters follow the playhead). */
async function toEnd(page: Page) {
  await kit(page).toEnd();
}

test.describe('Flow lab: the buffer under pressure', () => {
  test('R1: capacity 3, twenty progress then a final → 19 dropped; unbounded goes over capacity', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await expect(kit(lab).counter('dropped')).toHaveText('19');
    await expect(kit(lab).counter('coalesced')).toHaveText('19');
    await expect(kit(lab).counter('operation')).toHaveText('completed at 1000 ms');
    await expect(kit(lab).invariant('buffer-within-capacity')).toHaveAttribute('data-status', 'holds');
    await kit(lab).setPolicy('unbounded');
    await expect(kit(lab).counter('peak')).toHaveText('21');
    await expect(kit(lab).invariant('buffer-within-capacity')).toHaveAttribute('data-status', 'violated');
    await kit(lab).setPolicy('drop-silent');
    await expect(kit(lab).counter('silent')).toHaveText('18');
    await expect(kit(lab).invariant('no-silent-gap')).toHaveAttribute('data-status', 'violated');
    // Undo twice returns to the lesson policy and its numbers.
    await kit(lab).undoButton.click();
    await kit(lab).undoButton.click();
    await expect(kit(lab).policy).toHaveValue('lesson');
    await expect(kit(lab).counter('dropped')).toHaveText('19');
  });

  test('F1 opens on the lesson policy with every check holding; the unbounded bug is one click away and the checks and lesson rows say which policy they describe', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(kit(lab).picker).toHaveValue('F1-stalled-subscriber', { timeout: 20_000 });
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await expect(kit(lab).countersHint).toContainText('The counts follow the playhead');
    await toEnd(lab);
    await expect(kit(lab).countersHint).toHaveCount(0);
    await expect(kit(lab).policy).toHaveValue('lesson');
    await expect(kit(lab).counter('peak')).toHaveText('1');
    await expect(kit(lab).violatedInvariants).toHaveCount(0);
    await expect(kit(lab).invariantsSetting).toContainText('buffer policy lesson');
    await expect(kit(lab).invariantsSetting).toContainText('lesson policy (opens here)');
    const rows = kit(lab).lessonRows;
    await expect(rows).toHaveCount(5);
    await expect(rows.nth(0)).toHaveAttribute('data-current', 'true');
    await expect(rows.nth(0)).toContainText('replay agrees');
    await kit(lab).pressInLesson(1, 'show it');
    await expect(kit(lab).policy).toHaveValue('unbounded');
    await expect(kit(lab).counter('peak')).toHaveText('5900');
    await expect(kit(lab).invariant('buffer-within-capacity')).toHaveAttribute('data-status', 'violated');
    await expect(kit(lab).invariantsSetting).toContainText('buffer policy unbounded');
    await expect(kit(lab).invariantsSetting).toContainText('bug: unbounded grows to 5900 events');
    await expect(rows.nth(1)).toHaveAttribute('data-current', 'true');
    await expect(rows.nth(1)).toContainText('breaks buffer-within-capacity (on purpose)');
    await expect(rows.nth(0)).toHaveAttribute('data-current', 'false');
    await kit(lab).undoButton.click();
    await expect(kit(lab).policy).toHaveValue('lesson');
  });

  test('F1: a stalled subscriber overloads a 1024-event queue: 5900 unbounded, 1024 with drop-oldest, a disconnect at 11240 ms', async ({ lab }) => {
    await openFlow(lab, 'F1-stalled-subscriber');
    await kit(lab).setPolicy('unbounded');
    await expect(kit(lab).counter('peak')).toHaveText('5900');
    await kit(lab).setPolicy('drop-oldest');
    await expect(kit(lab).counter('peak')).toHaveText('1024');
    await expect(kit(lab).counter('dropped')).toHaveText('4876');
    await expect(kit(lab).counter('silent')).toHaveText('0');
    await kit(lab).setPolicy('disconnect');
    await expect(kit(lab).counter('resyncs')).toHaveText('1 / 1');
    // Scrub to just before and at the disconnect.
    await playhead(lab).fill('11239');
    await expect(kit(lab).counter('depth')).toHaveText('1024');
    await playhead(lab).fill('11240');
    await expect(kit(lab).counter('depth')).toHaveText('0');
  });

  test('the playhead plays, steps and jumps with the buttons and with Home/End/←/→/Space', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    const clock = kit(lab).clock;
    await kit(lab).jumpToStartButton.click();
    await expect(clock).toHaveAttribute('data-ms', '0');
    // Keys go to the page, not to the button just clicked (Space on a button presses that button).
    await kit(lab).blur();
    await kit(lab).pressOnPage('ArrowRight');
    const first = Number(await clock.getAttribute('data-ms'));
    expect(first).toBeGreaterThan(0);
    await kit(lab).pressOnPage('ArrowRight');
    await expect.poll(async () => Number(await clock.getAttribute('data-ms'))).toBeGreaterThan(first);
    await kit(lab).pressOnPage('ArrowLeft');
    await expect(clock).toHaveAttribute('data-ms', String(first));
    await kit(lab).pressOnPage('End');
    await expect(kit(lab).counter('operation')).toHaveText('completed at 1000 ms');
    await kit(lab).pressOnPage('Home');
    await expect(clock).toHaveAttribute('data-ms', '0');
    await kit(lab).pressOnPage('Space');
    await expect(kit(lab).pauseButton).toBeVisible();
    await expect.poll(async () => Number(await clock.getAttribute('data-ms'))).toBeGreaterThan(0);
    await kit(lab).pauseButton.click();
    await expect(kit(lab).playButton).toBeVisible();
    await expect(kit(lab).speedControl).toBeVisible();
  });

  test('a capacity below 2 under the lesson policy is refused with the field named, and the previous scenario is kept', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await kit(lab).capacity.fill('1');
    await expect(kit(lab).banner).toContainText('config.capacityEvents');
    await expect(kit(lab).counter('dropped')).toHaveText('19');
  });
});

test.describe('Flow lab: proxy and keep-alives', () => {
  test('P1: a buffering proxy starves the idle timeout; turning buffering off lets the call complete', async ({ lab }) => {
    await openFlow(lab, 'P1-proxy-buffering');
    await expect(kit(lab).counter('operation')).toHaveText('timeout-idle at 5000 ms');
    await kit(lab).proxyBuffering.uncheck();
    await expect(kit(lab).counter('operation')).toHaveText('completed at 22000 ms');
    await kit(lab).proxyBuffering.check();
    await expect(kit(lab).counter('operation')).toHaveText('timeout-idle at 5000 ms');
  });

  test('P3: the page shows the exact SSE headers; leaving out X-Accel-Buffering: no makes the nginx-like proxy buffer and the idle timeout fire', async ({ lab }) => {
    await openFlow(lab, 'P3-accel-buffering-header');
    await expect(kit(lab).sseHeaderLine).toHaveText('Content-Type: text/event-stream · Cache-Control: no-cache · X-Accel-Buffering: no');
    await expect(kit(lab).sseHeaders).toContainText('passes every event through unbuffered');
    await expect(kit(lab).counter('operation')).toHaveText('completed at 22000 ms');
    await kit(lab).bug('accel-header').check();
    await expect(kit(lab).sseHeaderLine).toHaveText('Content-Type: text/event-stream · Cache-Control: no-cache');
    await expect(kit(lab).counter('operation')).toHaveText('timeout-idle at 5000 ms');
    await kit(lab).bug('accel-header').uncheck();
    await expect(kit(lab).counter('operation')).toHaveText('completed at 22000 ms');
  });

  test('P2: keep-alives reach the client but never reset the idle timeout (the bug switch breaks the invariant)', async ({ lab }) => {
    await openFlow(lab, 'P2-keepalive-not-progress');
    await expect(kit(lab).counter('operation')).toHaveText('timeout-idle at 30000 ms');
    await expect(kit(lab).counter('proxy-timeouts')).toHaveText('0');
    await kit(lab).bug('keepalive').check();
    await expect(kit(lab).counter('operation')).toHaveText('completed at 90000 ms');
    await expect(kit(lab).invariant('keepalive-not-progress')).toHaveAttribute('data-status', 'violated');
  });

  test('SB1 (cpp-mcp PR#53): the 512-event queue and keep-alives deliver the burst; one slot overwrites 49 of 50 silently; no keep-alives cut the stream at 10 s and the result never comes', async ({ lab }) => {
    await openFlow(lab, 'SB1-one-slot-sse-buffer');
    await expect(kit(lab).scenarioSummary).toContainText('cpp-mcp PR#53');
    await expect(kit(lab).counter('peak')).toHaveText('50');
    await expect(kit(lab).counter('dropped')).toHaveText('0');
    await expect(kit(lab).counter('proxy-timeouts')).toHaveText('0');
    await expect(kit(lab).counter('operation')).toHaveText('completed at 14040 ms');
    await kit(lab).setPolicy('drop-silent');
    await kit(lab).setCapacity(1);
    await expect(kit(lab).counter('silent')).toHaveText('49');
    await expect(kit(lab).counter('operation')).toHaveText('completed at 12081 ms');
    await expect(kit(lab).invariant('no-silent-gap')).toHaveAttribute('data-status', 'violated');
    await kit(lab).setKeepAliveMs(null);
    await expect(kit(lab).counter('operation')).toHaveText(/^waiting/);
    // The page's range ends at horizonMs (20 000 ms): the cut at 10 000 ms is in it, the re-issue's cut at 21 000 ms past it.
    await expect(kit(lab).counter('proxy-timeouts')).toHaveText('1');
    await expect(kit(lab).counter('silent')).toHaveText('0');
  });

  test('RI2 (issue 23): every re-issue meets the same 60 s proxy timeout, so no result reaches the client', async ({ lab }) => {
    await openFlow(lab, 'RI2-reissue-meets-proxy-timeout');
    await expect(kit(lab).counter('operation')).toHaveText(/^waiting/);
    // The page's range ends at horizonMs (200 000 ms): the cuts at 60 000, 121 000 and 182 000 ms (the model's fourth, at 243 000 ms, is past it).
    await expect(kit(lab).counter('proxy-timeouts')).toHaveText('3');
  });
});

test.describe('Flow lab: fleets', () => {
  test('F2: evict-oldest never settles; rejecting with Retry-After keeps the same 50', async ({ lab }) => {
    await openFlow(lab, 'F2-stream-cap');
    await expect(kit(lab).fleetVerdict).toContainText('21 evictions');
    await expect(kit(lab).fleetVerdict).toContainText('it never settles');
    await kit(lab).setAtCap('reject');
    await expect(kit(lab).fleetVerdict).toContainText('0 evictions and 13 rejections');
    await expect(kit(lab).fleetVerdict).toContainText('it settled');
    await expect(kit(lab).counter('open')).toHaveText('50');
  });

  test('F3: jitter spreads 50 reconnects from one millisecond to 4042–5901 ms', async ({ lab }) => {
    await openFlow(lab, 'F3-restart-herd');
    await expect(kit(lab).fleetVerdict).toContainText('between 5000 and 5000 ms (spread 0 ms), at most 50');
    await kit(lab).setJitterMs(1000);
    await expect(kit(lab).fleetVerdict).toContainText('between 4042 and 5901 ms (spread 1859 ms), at most 5');
  });
});

test.describe('Flow lab: herd plot', () => {
  test('changing the client count and the strategies updates the table', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(kit(lab).herd.table).toBeVisible({ timeout: 20_000 });
    await expect(kit(lab).herd.cell('exponential', 'peak')).toHaveText('10,000');
    await kit(lab).herd.setClientsStep(3);
    await expect(kit(lab).herd.clientsValue).toHaveText('1,000');
    await expect(kit(lab).herd.cell('exponential', 'peak')).toHaveText('1,000');
    await expect(kit(lab).herd.row('equal-jitter')).toHaveCount(0);
    await kit(lab).herd.setStrategy('equal-jitter');
    await expect(kit(lab).herd.row('equal-jitter')).toHaveCount(1);
    await kit(lab).herd.setStrategy('exponential', false);
    await expect(kit(lab).herd.row('exponential')).toHaveCount(0);
    await kit(lab).herd.setClientsStep(5);
    await expect(kit(lab).herd.clientsValue).toHaveText('100,000');
    await expect(kit(lab).herd.cell('full-jitter', 'attempts')).not.toHaveText('');
  });

  test('one keyboard step of the client slider is one change: one Ctrl+Z takes it back', async ({ lab }) => {
    // The range snaps the value written back to its step, and its change event used to apply the same count again: a second undo step that changed nothing.
    await lab.goto('./#/flow');
    await expect(kit(lab).herd.table).toBeVisible({ timeout: 20_000 });
    await expect(kit(lab).herd.clientsValue).toHaveText('10,000');
    await kit(lab).herd.clients.focus();
    await kit(lab).press('ArrowLeft');
    await expect(kit(lab).herd.clientsValue).toHaveText('9,772');
    await kit(lab).undoKey();
    await expect(kit(lab).herd.clientsValue).toHaveText('10,000');
  });

  test('the SDK default gives up after its maxRetries of 2: the default 5000 ms outage outlasts both tries (1000 and 2500 ms), so all 10,000 clients give up', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(kit(lab).herd.strategy('sdk-default')).toBeVisible({ timeout: 20_000 });
    await kit(lab).herd.setStrategy('sdk-default');
    await expect(kit(lab).herd.cell('sdk-default', 'gave-up')).toHaveText('10,000');
    await expect(kit(lab).herd.cell('sdk-default', 'back')).toHaveText('never (within 2 attempts)');
    await expect(kit(lab).herd.cell('sdk-default', 'attempts')).toHaveText('20,000');
    await expect(kit(lab).herd.panel('sdk-default')).toContainText('never: 10,000 gave up after 2 attempts');
  });

  test('strategies are small multiples: side by side at 1280 px with one y scale, stacked at 390 px; each panel names peak, recovery and attempts', async ({ lab }) => {
    await lab.setViewportSize({ width: 1280, height: 900 });
    await lab.goto('./#/flow');
    const panels = kit(lab).herd.panels;
    await expect(panels).toHaveCount(3, { timeout: 20_000 });
    await expect(kit(lab).herd.panel('exponential')).toContainText('10,000/s (5.0× capacity)');
    await expect(kit(lab).herd.panel('exponential')).toContainText('everyone back');
    await expect(kit(lab).herd.panel('exponential')).toContainText('attempts');
    await expect(kit(lab).herd.canvas).toContainText('same scales in every panel');
    const boxes = await Promise.all([0, 1, 2].map((i) => panels.nth(i).boundingBox()));
    expect(new Set(boxes.map((b) => Math.round(b!.y))).size).toBe(1);
    expect(boxes[0]!.x).toBeLessThan(boxes[1]!.x);
    expect(boxes[1]!.x).toBeLessThan(boxes[2]!.x);
    await lab.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await panels.nth(1).boundingBox())!.y).toBeGreaterThan((await panels.nth(0).boundingBox())!.y + 100);
    const scrollW = await kit(lab).scrollWidth();
    expect(scrollW).toBeLessThanOrEqual(390);
  });

  test('the reconnect plan follows the scenario\'s own drop: both revisions for the drop the timeline shows', async ({ lab }) => {
    await openFlow(lab, 'F1-stalled-subscriber');
    // The lesson policy never drops the stream: the plan says so and assumes a drop at the playhead.
    await expect(kit(lab).plan.drop).toContainText('No drop in this run');
    await kit(lab).setPolicy('disconnect');
    await expect(kit(lab).plan.drop).toContainText('The stream dropped at t = 11,240 ms');
    await expect(kit(lab).plan.drop).toContainText('reconnected at 60,000 ms');
    await expect(kit(lab).plan.drop).toContainText('the client had seen event 100');
    await expect(kit(lab).plan.revision('2026')).toContainText('subscriptions/listen');
    await expect(kit(lab).plan.revision('2026')).toContainText('flow://streams/feed');
    await expect(kit(lab).plan.revision('2026')).toContainText('not replayed automatically');
    await expect(kit(lab).plan.revision('2025')).toContainText('Last-Event-ID: 100');
    await expect(kit(lab).plan.revision('2025')).toContainText('evicted 101–4976');
    await kit(lab).plan.store.fill('10000');
    await expect(kit(lab).plan.revision('2025')).toContainText('replays those 5900 events');
    await kit(lab).plan.markSafe();
    await expect(kit(lab).plan.revision('2026')).toContainText('is safe to repeat (read-only or idempotent). Re-issued as a new request');
  });
});

for (const theme of ['light', 'dark'] as const) {
  test(`no serious accessibility violations, ${theme} theme (axe) — with screenshots`, async ({ lab }, info) => {
    // axe walks the whole page (timeline marks, plans, tables): slow on a loaded two-core machine.
    test.setTimeout(120_000);
    await lab.emulateMedia({ colorScheme: theme });
    await openFlow(lab, 'P1-proxy-buffering');
    await expect(kit(lab).herd.table).toBeVisible();
    await lab.screenshot({ path: info.outputPath(`flow-${theme}.png`), fullPage: true });
    const results = await new AxeBuilder({ page: lab }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

test.describe('Flow lab: links and files', () => {
  test('an edited scenario survives a reload through the address; a broken link is refused with the field named', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await expect(lab).toHaveURL(/#\/flow\/R1-coalesce-one-token$/);
    await kit(lab).setPolicy('unbounded');
    await expect(lab).toHaveURL(/#\/flow\?scenario=/);
    await lab.reload();
    await expect(kit(lab).policy).toHaveValue('unbounded', { timeout: 20_000 });
    await toEnd(lab);
    await expect(kit(lab).counter('peak')).toHaveText('21');
  });

  test('a garbage link and an unknown id are refused in the banner, which names the scenario shown instead', async ({ lab }) => {
    await lab.goto('./#/flow?scenario=garbage');
    const banner = kit(lab).banner;
    await expect(banner).toContainText('The link does not hold a valid flow scenario; showing "F1 · A subscriber stalls for 59 s at 100 events/s" instead', { timeout: 20_000 });
    await expect(banner).toContainText('scenario (in the link)');
    await expect(kit(lab).picker).toHaveValue('F1-stalled-subscriber');
    await lab.goto('about:blank');
    await lab.goto('./#/flow/no-such-lesson');
    await expect(banner).toContainText('showing "F1 · A subscriber stalls for 59 s at 100 events/s" instead', { timeout: 20_000 });
    await expect(banner).toContainText('"no-such-lesson"');
    // A bad link opened while the page runs keeps the scenario on screen and says so.
    await kit(lab).picker.selectOption('R2-two-tokens');
    await expect(banner).toHaveCount(0);
    await lab.evaluate(() => (window.location.hash = '#/flow?scenario=%%%'));
    await expect(banner).toContainText('still showing "R2 · ');
    await expect(kit(lab).picker).toHaveValue('R2-two-tokens');
    await kit(lab).dismissBanner();
    await expect(banner).toHaveCount(0);
  });

  test('importing a bad file keeps the scenario and names the problem; a good file loads', async ({ lab }) => {
    await openFlow(lab, 'R2-two-tokens');
    await kit(lab).fileInput.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":1,"lab":"flow","id":"x","title":"x","config":{"capacityEvents":1},"events":[]}') });
    await expect(kit(lab).banner).toContainText('config.capacityEvents');
    await expect(kit(lab).picker).toHaveValue('R2-two-tokens');
    const good = { format: 1, lab: 'flow', id: 'mine', title: 'My stream', seed: 1, config: { capacityEvents: 2 }, events: [{ id: 's', at: 0, actor: 'client', kind: 'stall', durationMs: 100 }, { id: 'a', at: 1, actor: 'server', kind: 'progress', token: 'A' }, { id: 'b', at: 2, actor: 'server', kind: 'progress', token: 'B' }, { id: 'c', at: 3, actor: 'server', kind: 'progress', token: 'C' }] };
    await kit(lab).fileInput.setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)) });
    await expect(kit(lab).picker).toHaveValue('mine');
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await toEnd(lab);
    await expect(kit(lab).counter('dropped')).toHaveText('1');
    // Another lab's file is named in one line, not a list of field errors.
    await kit(lab).fileInput.setInputFiles({ name: 'race.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 1, lab: 'races', id: 'r', title: 'r', config: {}, events: [] })) });
    await expect(kit(lab).bannerItems).toHaveText(['lab: this is a "races" scenario; open it in the Races lab (#/races)']);
    await expect(kit(lab).picker).toHaveValue('mine');
    // Pasted JSON imports too; a bad paste names the JSON problem.
    await kit(lab).importText.fill('{ not json');
    await kit(lab).pasteButton.click();
    await expect(kit(lab).banner).toContainText('The pasted scenario is not a valid flow scenario');
    await kit(lab).importText.fill(JSON.stringify({ ...good, id: 'pasted', title: 'Pasted' }));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).picker).toHaveValue('pasted');
    await expect(kit(lab).importText).toHaveValue('');
  });
});
