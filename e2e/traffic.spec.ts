import { expect, test } from './fixtures';
import { RacesPage } from './pages/races';
import { TrafficDriver } from './pages/traffic';

/** A Claude Desktop–style server log: a call cancelled at 300 ms whose result still came at 3000 ms (stderr interleaved). */
const LATE_AFTER_CANCEL = [
  '2026-01-01T00:00:00.000Z [demo] [info] Message from client: {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run_query","arguments":{"sql":"select 1"}}} { metadata: undefined }',
  'demo-server: job 7 started',
  '2026-01-01T00:00:00.300Z [demo] [info] Message from client: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"User pressed Stop"}} { metadata: undefined }',
  'demo-server: still working on job 7',
  '2026-01-01T00:00:03.000Z [demo] [info] Message from server: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"1 row"}]}} { metadata: undefined }',
].join('\n');

test.describe('Traffic page', () => {
  test('a Claude Desktop log: findings, a finding selects its messages, open as a scenario and drag the cancel to the other outcome', async ({ lab }) => {
    const traffic = await new TrafficDriver(lab).open();
    await expect(traffic.nav('traffic')).toHaveAttribute('aria-current', 'page');
    await traffic.paste(LATE_AFTER_CANCEL);
    await expect(traffic.format).toHaveAttribute('data-format', 'claude-desktop-log');
    await expect(traffic.format).toContainText('Claude Desktop server log');
    await expect(traffic.counts).toContainText('3 messages');
    const late = traffic.finding('late-after-cancel');
    await expect(late).toHaveCount(1);
    await expect(traffic.teaches(late)).toHaveAttribute('href', /#\/races\/A-cancel-then-complete/);
    await lab.screenshot({ path: '/tmp/traffic-shots/traffic-1280.png', fullPage: true });

    // Clicking the finding selects its offending message (the late result) on the timeline, in the list and in the wire panel, as received.
    await traffic.select(late);
    await expect(late).toHaveAttribute('aria-current', 'true');
    await expect(traffic.wireRaw).toHaveText('{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"1 row"}]}}');
    await expect(traffic.selectedMessageRow).toContainText('3000 ms← result #7');
    await expect(traffic.wire).toHaveAttribute('data-mark', /^entry-\d+$/);
    // Its other messages are listed with it; clicking one selects it.
    await expect(traffic.entries(late)).toHaveText(['0 ms → tools/call #7', '300 ms → cancel #7', '3000 ms ← result #7']);
    await traffic.entries(late).filter({ hasText: 'cancel #7' }).click();
    await expect(traffic.wireRaw).toHaveText('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"User pressed Stop"}}');

    // Open as a scenario: the races lab with the same times and ids.
    await traffic.openScenario();
    const races = new RacesPage(lab);
    await expect(races.labPage).toHaveAttribute('data-lab', 'races', { timeout: 20_000 });
    expect(await lab.evaluate(() => window.location.hash)).toMatch(/^#\/races\?scenario=/);
    const cancel = races.eventStartingWith('cancel-');
    const complete = races.eventStartingWith('complete-');
    await expect(cancel).toHaveAttribute('aria-label', /at 300 ms/);
    await expect(complete).toHaveAttribute('aria-label', /at 3000 ms/);
    await lab.screenshot({ path: '/tmp/traffic-shots/traffic-races.png', fullPage: true });
    const before = await races.outcomeState.textContent();
    expect(before).toBe('cancelled');
    // Drag the cancel past the result: the result now reaches the client first.
    const done = (await complete.boundingBox())!;
    await races.dragTo(cancel, done.x + done.width / 2 + 40, 12);
    const at = await races.eventAt(cancel);
    expect(at).toBeGreaterThan(3000);
    await expect(races.outcomeState).toHaveText('completed');
  });

  test('bad input keeps the previous transcript and says why in one line', async ({ lab }) => {
    const traffic = await new TrafficDriver(lab).open();
    await traffic.pickSample('inspector-v2/inspector-responds-after-cancel.json');
    await expect(traffic.format).toHaveAttribute('data-format', 'inspector-v2');
    const findings = await traffic.findings.count();
    expect(findings).toBeGreaterThan(0);
    await traffic.paste('hello\nthis is not a transcript\n');
    await expect(traffic.banner).toBeVisible();
    await expect(traffic.banner).toContainText('The pasted text was not loaded; the previous transcript is kept');
    await expect(traffic.bannerItems.first()).toContainText('(transcript):');
    await expect(traffic.format).toHaveAttribute('data-format', 'inspector-v2');
    await expect(traffic.findings).toHaveCount(findings);
    await expect(traffic.source).toHaveText('The sample inspector-responds-after-cancel.json');
    // A bad allowance names the field and what to do; the last good check stays.
    await traffic.setAllowance('1s');
    await expect(traffic.optionErrors).toHaveText(/allowanceMs: "1s" is not a whole number of milliseconds — type digits only/);
    await expect(traffic.findings).toHaveCount(findings);
    // A valid allowance re-checks in the worker: a response 2.7 s after its cancel is within 5 s.
    await expect(traffic.finding('late-after-cancel')).toHaveCount(1);
    await traffic.setAllowance('5000');
    await expect(traffic.optionErrors).toHaveCount(0);
    await expect(traffic.finding('late-after-cancel')).toHaveCount(0);
    await traffic.setAllowance('1000');
    await expect(traffic.finding('late-after-cancel')).toHaveCount(1);
  });

  test('skipped lines are counted; filters narrow the list; next/previous finding steps', async ({ lab }) => {
    const traffic = await new TrafficDriver(lab).open();
    await traffic.pickSample('jsonrpc-jsonl/jsonrpc-fifty-timeouts-no-cancel.jsonl');
    await expect(traffic.format).toHaveAttribute('data-format', 'jsonrpc-jsonl');
    const n = await traffic.findings.count();
    expect(n).toBeGreaterThan(1);
    await traffic.nextFinding();
    await expect(traffic.findings.nth(0)).toHaveAttribute('aria-current', 'true');
    await traffic.nextFinding();
    await expect(traffic.findings.nth(1)).toHaveAttribute('aria-current', 'true');
    await traffic.prevFinding();
    await expect(traffic.findings.nth(0)).toHaveAttribute('aria-current', 'true');
    const all = await traffic.shown();
    await traffic.filterById('1');
    const one = await traffic.shown();
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThan(all);
    // Export: the transcript in another format (redacted: values hashed, ids kept), and the review.
    await traffic.setExport('capture-jsonl', true);
    const [dl] = await Promise.all([lab.waitForEvent('download'), traffic.exportTranscriptButton.click()]);
    expect(dl.suggestedFilename()).toMatch(/-capture-jsonl-redacted\.jsonl$/);
    const exported = await (await dl.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8'));
    expect(exported.split('\n')[0]).toMatch(/"direction":"c2s"/);
    expect(exported).toContain('sha256:');
    const [review] = await Promise.all([lab.waitForEvent('download', { timeout: 20_000 }), traffic.exportReviewButton.click()]);
    expect(review.suggestedFilename()).toBe('reliability-review-redacted.md');
    const md = await (await review.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8'));
    expect(md).toMatch(/^# /);
    // A truncated last line is skipped (counted and listed), never fatal.
    await traffic.paste(`${LATE_AFTER_CANCEL}\n2026-01-01T00:00:04.000Z [demo] [info] Message from server: {"jsonrpc":"2.0","id":`);
    await expect(traffic.source).toHaveText('The pasted text');
    await expect(traffic.skippedCount).toHaveText('1');
    await traffic.openSkipped();
    await expect(traffic.skipped).toContainText('line 6: truncated last line');
  });

  test('a 60,000-line file: loaded in the worker, the list windowed and the timeline grouped', async ({ lab }) => {
    const traffic = await new TrafficDriver(lab).open();
    const lines: string[] = [];
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 30_000; i++) {
      lines.push(`{"ts":"${new Date(t0 + i * 10).toISOString()}","dir":"req","jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"lookup","arguments":{"q":"${i}"}}}`);
      lines.push(`{"ts":"${new Date(t0 + i * 10 + 25).toISOString()}","dir":"res","jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"ok"}]}}`);
    }
    await traffic.fileInput.setInputFiles({ name: 'big.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.join('\n')) });
    await expect(traffic.source).toHaveText('The file big.jsonl', { timeout: 60_000 });
    await expect(traffic.counts).toContainText('60,000 messages');
    await expect(traffic.shownCount).toHaveText('60,000 shown');
    expect(await traffic.messageRows.count()).toBeLessThan(60);
    expect(Number(await traffic.timeline.getAttribute('data-marks'))).toBeLessThan(400);
    // Scrolling the list far down renders the rows there.
    await traffic.scrollListTo(26 * 50_000);
    await expect(traffic.messageRows.first()).toContainText(/#2[45]\d{3}/);
  });

  test('phone width (390 px): the page does not scroll sideways', async ({ lab }) => {
    await lab.setViewportSize({ width: 390, height: 844 });
    const traffic = await new TrafficDriver(lab).open();
    await traffic.paste(LATE_AFTER_CANCEL);
    await expect(traffic.finding('late-after-cancel')).toHaveCount(1);
    await traffic.select(traffic.finding('late-after-cancel'));
    const overflow = await traffic.sidewaysOverflow();
    expect(overflow).toBeLessThanOrEqual(0);
    await lab.screenshot({ path: '/tmp/traffic-shots/traffic-390.png', fullPage: true });
  });
});
