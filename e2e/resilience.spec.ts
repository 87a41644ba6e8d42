import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ResiliencePage } from './pages/resilience';

/** This spec's page object (e2e/pages/lab.ts) on `page`. */
const kit = (page: Page) => new ResiliencePage(page);

async function open(page: Page, id: string) {
  await kit(page).openDirect(id);
}

/** Drags event `id`'s handle with the pointer to the x position `x` (page coordinates). */
async function dragTo(page: Page, id: string, x: number) {
  await kit(page).dragEvent(id, x, 12);
}

async function centerX(page: Page, id: string): Promise<number> {
  return kit(page).eventCenterX(id);
}

async function atMs(page: Page, id: string): Promise<number> {
  return kit(page).eventAt(id);
}

test.describe('Resilience lab: retry storm', () => {
  test('three layers of three retries reach the upstream 64 times; retrying at one layer only, 4', async ({ lab }) => {
    await open(lab, 'S1-three-layers');
    await expect(kit(lab).storm('upstream-attempts')).toHaveText('64');
    await expect(kit(lab).storm('per-layer')).toHaveText('4 · 16 · 64');
    await kit(lab).toggle('fixes.retryAtOneLayerOnly').check();
    await expect(kit(lab).storm('upstream-attempts')).toHaveText('4');
    await kit(lab).undoButton.click();
    await expect(kit(lab).storm('upstream-attempts')).toHaveText('64');
  });

  test('with and without the fixes: duplicate work after the cancel, then one execution', async ({ lab }) => {
    await open(lab, 'S2-timeouts-cancel');
    await expect(kit(lab).storm('upstream-attempts')).toHaveText('32');
    await expect(kit(lab).storm('after-cancel')).toHaveText('26');
    await kit(lab).toggle('fixes.cancelPropagation').check();
    await expect(kit(lab).storm('after-cancel')).toHaveText('2');
    await kit(lab).toggle('fixes.idempotencyKeys').check();
    await expect(kit(lab).storm('executions')).toHaveText('1 (0)');
    await expect(kit(lab).invariant('one-execution-per-action')).toHaveAttribute('data-status', 'holds');
  });

  test('the storm as a flow of layers: counts multiply, duplicates after the cancel stand out, the fixes change the counts; readable at 390 px', async ({ lab }) => {
    await open(lab, 'S2-timeouts-cancel');
    await lab.keyboard.press('End');
    await expect(kit(lab).storm('layer-1')).toContainText('× 4 per attempt above');
    await expect(kit(lab).storm('layer-2-now')).toHaveText('32');
    await expect(kit(lab).storm('layer-2-after-cancel')).toHaveText('23 still running after the cancel');
    await expect(kit(lab).storm('exec-after-cancel')).toHaveText('26 duplicate executions running at or started after the cancel');
    // Many attempts: the timeline shows each layer's load unless asked for every bar.
    await expect(kit(lab).storm('every-attempt')).not.toBeChecked();
    await kit(lab).applyFix('Cancellation propagated (alone)');
    await expect(kit(lab).toggle('fixes.cancelPropagation')).toBeChecked();
    await expect(kit(lab).storm('after-cancel')).toHaveText('2');
    await expect(kit(lab).storm('exec-after-cancel')).toHaveText('2 duplicate executions running at or started after the cancel');
    await expect(kit(lab).currentFixRow).toContainText('Cancellation propagated (alone)');
    await kit(lab).applyFix('All five fixes');
    await expect(kit(lab).storm('executions')).toHaveText('1 (0)');
    await expect(kit(lab).storm('exec-after-cancel')).toHaveCount(0);
    await lab.setViewportSize({ width: 390, height: 800 });
    await expect(kit(lab).storm('flow')).toBeVisible();
    expect(await kit(lab).scrollWidth()).toBeLessThanOrEqual(390);
  });

  test('gateway: 4 executions (2 killed); a receipt at 25 000 ms gives 1, finished at 180 000 ms', async ({ lab }) => {
    await open(lab, 'S3-gateway-receipt');
    await expect(kit(lab).storm('executions')).toHaveText('4 (2)');
    await kit(lab).showLesson(/Show: Receipt at 25000 ms/);
    await expect(kit(lab).storm('executions')).toHaveText('1 (0)');
    await expect(kit(lab).storm('action')).toHaveText('succeeded at 180 000 ms');
    await expect(kit(lab).lessonRow(1)).toHaveAttribute('data-met', 'yes');
  });
});

test.describe('Resilience lab: tasks/cancel under both revisions', () => {
  test('drag the abort after the checkpoint and back, under 2026-07-28 and 2025-11-25', async ({ lab }) => {
    await open(lab, 'T1-abort-before-task-id');
    const status = kit(lab).task('status');
    await expect(status).toHaveText('cancelled at 2 000 ms');
    await expect(kit(lab).task('ack')).toHaveText('empty at 120 ms');

    // After the checkpoint (between it and the finish at 4000 ms): nothing stops the work.
    const mid = ((await centerX(lab, 'checkpoint')) + (await centerX(lab, 'finish'))) / 2;
    await dragTo(lab, 'abort', mid);
    const after = await atMs(lab, 'abort');
    expect(after).toBeGreaterThan(2000);
    expect(after).toBeLessThan(4000);
    await expect(status).toHaveText('completed at 4 000 ms');
    await kit(lab).choose('revision', '2025-11-25');
    await expect(status).toHaveText(`cancelled at ${after.toLocaleString('en').replace(/,/g, ' ')} ms`);

    // Back before the checkpoint: 2025 cancels at once, 2026 at the checkpoint.
    const before = ((await centerX(lab, 'created')) + (await centerX(lab, 'checkpoint'))) / 2;
    await dragTo(lab, 'abort', before);
    const early = await atMs(lab, 'abort');
    expect(early).toBeLessThan(2000);
    await expect(status).toHaveText(`cancelled at ${early.toLocaleString('en').replace(/,/g, ' ')} ms`);
    await kit(lab).choose('revision', '2026-07-28');
    await expect(status).toHaveText('cancelled at 2 000 ms');
    await expect(kit(lab).invariant('terminal-never-changes')).toHaveAttribute('data-status', 'holds');
  });

  test('the buggy store overwrites a completed task; the correct one keeps the result', async ({ lab }) => {
    await open(lab, 'T2-cancel-after-completion');
    await expect(kit(lab).task('status')).toHaveText('completed at 5 000 ms');
    await expect(kit(lab).task('result')).toHaveText('report ready');
    // 2026-07-28 extension: the result comes inlined in tasks/get (6 200 ms); no tasks/result round trip (that was 6 400 ms).
    await expect(kit(lab).task('result-fetched')).toHaveText('"report ready" at 6 200 ms');
    // The wire panel says what each message is checked against: the official tasks extension schema under 2026-07-28, the official core one under 2025-11-25.
    await lab.keyboard.press('End');
    const checks = kit(lab).wireCheckedAgainst;
    await expect(checks.filter({ hasText: 'official tasks extension schema (ext-tasks e434597) ($defs/CancelTaskRequest)' })).toHaveCount(1);
    await expect(checks.filter({ hasText: 'official tasks extension schema' }).first()).toContainText('✓ extension schema');
    await kit(lab).choose('revision', '2025-11-25');
    await expect(checks.filter({ hasText: 'official 2025-11-25 schema ($defs/CancelTaskRequest)' })).toHaveCount(1);
    await expect(checks.filter({ hasText: 'extension schema' })).toHaveCount(0);
    await expect(kit(lab).task('result-fetched')).toHaveText('"report ready" at 6 400 ms');
    await kit(lab).choose('revision', '2026-07-28');
    await kit(lab).toggle('policy.cancelOverwritesTerminal').check();
    await expect(kit(lab).task('status')).toHaveText('cancelled at 5 100 ms');
    await expect(kit(lab).invariant('terminal-never-changes')).toHaveAttribute('data-status', 'violated');
  });

  test('a task lost in a crash before it was durable: the status lane stops at the crash and says "lost", never "working"; the client knows no task', async ({ lab }) => {
    await open(lab, 'T2-cancel-after-completion');
    const t2 = JSON.parse(await lab.evaluate(() => fetch('scenarios/resilience/T2-cancel-after-completion.json').then((r) => r.text()))) as { title: string; config: Record<string, unknown> };
    // The durable write takes 300 ms; the server crashes at 250 ms: task-1 (created at 100 ms) was never durable, no handle went out.
    await kit(lab).paste({ ...t2, title: 'T2 with a crash', config: { ...t2.config, durableWriteMs: 300, serverCrashAtMs: 250 } });
    await expect(kit(lab).heading).toContainText('T2 with a crash');
    await lab.keyboard.press('End');
    const marks = kit(lab).marks;
    await expect(marks.svgText('lost: no task (task-1 never durable)')).toHaveCount(1);
    await expect(marks.svgText('no task: the call was lost — re-issue as a new request')).toHaveCount(1);
    await expect(marks.svgText(/^working$/)).toHaveCount(0);
    await expect(kit(lab).task('client-knows')).toHaveText('no task: the tools/call was lost at 250 ms before any handle came back — re-issue it as a new request');
    await expect(kit(lab).task('server-has')).toHaveText('no task: task-1 was lost in the crash at 250 ms (never durable) — tasks/get for it answers -32602');
    await expect(kit(lab).task('observed')).toHaveText('none — no task: the call was lost at 250 ms');
    await expect(kit(lab).task('history')).toHaveText('working@100 · lost in the crash@250');
  });

  test('T5 and T4 (issue 23): a client without the tasks extension gets -32021 and no task; a task that needs input from a client without elicitation fails with -32021', async ({ lab }) => {
    await open(lab, 'T5-client-without-tasks-extension');
    await lab.keyboard.press('End');
    await expect(kit(lab).task('client-knows')).toHaveText('no task: the tools/call got -32021 Missing required client capability: the call can only be served as a task (io.modelcontextprotocol/tasks) at 120 ms');
    await expect(kit(lab).task('server-has')).toHaveText('no task: it refused the call at 100 ms with -32021 (the client did not declare the tasks extension)');
    await open(lab, 'T4-input-without-elicitation');
    await lab.keyboard.press('End');
    await expect(kit(lab).task('server-has')).toHaveText('task-1 failed since 600 ms');
    await expect(kit(lab).task('observed')).toHaveText('failed at 600 ms');
  });
});

test.describe('Resilience lab: circuit breaker', () => {
  test('six concurrent failures reach half-open at 10 100 ms; the library bug never does', async ({ lab }) => {
    await open(lab, 'B1-concurrent-failures');
    await expect(kit(lab).breaker('half-open-at')).toHaveText('10 100 ms');
    await kit(lab).toggle('policy.staleResultsCounted').check();
    await kit(lab).toggle('policy.resetTimerLostOnRepeatOpen').check();
    await expect(kit(lab).breaker('half-open-at')).toHaveText('never');
    await expect(kit(lab).invariant('reset-timer-armed')).toHaveAttribute('data-status', 'violated');
  });

  test('composition: 5 wire attempts versus 15 when the breaker opens', async ({ lab }) => {
    await open(lab, 'B2-retry-composition');
    await expect(kit(lab).breaker('attempts-at-open')).toHaveText('5');
    // A rejection sent nothing: retried after the reset by default, ended at once under fail-fast.
    await expect(kit(lab).breaker('rejections-retried')).toHaveText('26');
    await expect(kit(lab).breaker('calls')).toHaveText('12 / 1 / 6');
    await kit(lab).choose('retry.onRejection', 'fail-fast');
    await expect(kit(lab).breaker('rejections-retried')).toHaveText('0');
    await expect(kit(lab).breaker('calls')).toHaveText('2 / 1 / 16');
    await kit(lab).choose('composition', 'breaker-around-retry');
    await expect(kit(lab).rejectionRule).toContainText('a rejection is final');
    await expect(kit(lab).breaker('attempts-at-open')).toHaveText('15');
    await expect(kit(lab).breaker('probes')).toHaveText('1');
  });
});

test.describe('Resilience lab: incidents (issue 24 item 4)', () => {
  test('B5 (hermes-agent#11113): the corrected breaker never opens and the good page succeeds; counting isError opens it at 2 100 ms, rejects the good page, and each probe is a real navigation', async ({ lab }) => {
    await open(lab, 'B5-breaker-counts-tool-errors');
    await lab.keyboard.press('End');
    await expect(kit(lab).breaker('open-at')).toHaveText('—');
    await expect(kit(lab).breaker('now')).toHaveText('closed');
    // ok / failed / rejected: the good page (bing, 4 000 ms) is the one success; the five isError answers reach the model.
    await expect(kit(lab).breaker('calls')).toHaveText('1 / 5 / 0');
    await expect(kit(lab).breaker('retries')).toHaveText('6 / 0 / 0');
    for (const name of ['breaker-counts-transport-failures-only', 'half-open-probe-side-effect-free']) await expect(kit(lab).invariant(name)).toHaveAttribute('data-status', 'holds');

    await kit(lab).toggle('policy.toolErrorsCounted').check();
    await kit(lab).toggle('policy.halfOpenProbeIsRealCall').check();
    await expect(kit(lab).breaker('open-at')).toHaveText('2 100 ms');
    await expect(kit(lab).breaker('half-open-at')).toHaveText('62 100 ms');
    await expect(kit(lab).breaker('closed-at')).toHaveText('—');
    await expect(kit(lab).breaker('calls')).toHaveText('0 / 5 / 1');
    await expect(kit(lab).breaker('retries')).toHaveText('5 / 0 / 0');
    for (const name of ['breaker-counts-transport-failures-only', 'half-open-probe-side-effect-free']) await expect(kit(lab).invariant(name)).toHaveAttribute('data-status', 'violated');
    await expect(kit(lab).lessonRow(1)).toHaveAttribute('data-met', 'yes');
  });

  test('T6 (MCPJam inspector PR#3518): each task polled at its own pollIntervalMs — 120 and 2 tasks/get; polling every task at the minimum drags the 30 s task to 500 ms (120 polls, 60×); a user minimum of 1 000 ms raises only the fast task', async ({ lab }) => {
    await open(lab, 'T6-poll-interval-per-task');
    await lab.keyboard.press('End');
    // task-2 (live, pollIntervalMs 500, known at 100 ms): 600 … 60 100 ms; task-1 (30 000, known at 200 ms): 30 200 and 60 200 ms.
    await expect(kit(lab).task('polls-live')).toHaveText('120 every 500 ms from 600 ms (its server asks for 500 ms)');
    await expect(kit(lab).task('polls-task')).toHaveText('2 every 30 000 ms from 30 200 ms (its server asks for 30 000 ms)');
    await expect(kit(lab).task('polls-total')).toHaveText('122');
    await expect(kit(lab).task('status')).toHaveText('completed at 60 000 ms');
    await expect(kit(lab).marks.svgText('live status')).toHaveCount(1);
    await expect(kit(lab).invariant('poll-interval-respected')).toHaveAttribute('data-status', 'holds');
    await expect(kit(lab).lessonRow(0)).toHaveAttribute('data-met', 'yes');

    // The settings panel shows the incident's switch (off) and the user's minimum (none).
    const bug = kit(lab).toggle('policy.pollAtMinimumAcrossTasks');
    await expect(bug).toBeVisible();
    await expect(bug).not.toBeChecked();
    await expect(kit(lab).choice('minPollIntervalMs')).toHaveValue('0');
    await bug.check();
    await expect(kit(lab).task('polls-task')).toHaveText('120 every 500 ms from 700 ms (its server asks for 30 000 ms) — 120 sooner than it asked');
    await expect(kit(lab).task('polls-live')).toHaveText('120 every 500 ms from 600 ms (its server asks for 500 ms)');
    await expect(kit(lab).task('polls-total')).toHaveText('240');
    await expect(kit(lab).invariant('poll-interval-respected')).toHaveAttribute('data-status', 'violated');
    await expect(kit(lab).lessonRow(1)).toHaveAttribute('data-met', 'yes');

    await bug.uncheck();
    await kit(lab).choose('minPollIntervalMs', '1000');
    await expect(kit(lab).task('polls-live')).toHaveText('60 every 1 000 ms from 1 100 ms (its server asks for 500 ms)');
    await expect(kit(lab).task('polls-task')).toHaveText('2 every 30 000 ms from 30 200 ms (its server asks for 30 000 ms)');
    await expect(kit(lab).task('polls-total')).toHaveText('62');
    await expect(kit(lab).invariant('poll-interval-respected')).toHaveAttribute('data-status', 'holds');
    await expect(kit(lab).lessonRow(2)).toHaveAttribute('data-met', 'yes');
  });
});

test.describe('Resilience lab: review fixes (state labels, phone width, typed settings, playhead counts, links, paste)', () => {
  test('B2: breaker state labels never overlap (full name, initial or none; each names its state in a tooltip); no sideways scroll at 390 px', async ({ lab }) => {
    await open(lab, 'B2-retry-composition');
    await lab.keyboard.press('End');
    for (const width of [1280, 390]) {
      await lab.setViewportSize({ width, height: 800 });
      await expect(kit(lab).marks.markerTitles(/^half-open from \d+ ms to \d+ ms$/).first()).toBeAttached();
      const boxes = await kit(lab).marks.markerLabels.evaluateAll((els) =>
        els.filter((e) => /^(closed|open|half-open|C|O|H)$/.test(e.textContent ?? '')).map((e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent, left: r.left, right: r.right };
        }),
      );
      expect(boxes.length).toBeGreaterThan(2);
      boxes.sort((a, b) => a.left - b.left);
      for (let i = 1; i < boxes.length; i++) expect(boxes[i].left, `${boxes[i - 1].text} then ${boxes[i].text} at ${width} px`).toBeGreaterThanOrEqual(boxes[i - 1].right);
    }
    await expect(kit(lab).timeoutsTable).toBeVisible();
    expect(await kit(lab).scrollWidth()).toBeLessThanOrEqual(390);
  });

  test('B2: a bad static timeout is refused by name and range; the kept value shows in the box', async ({ lab }) => {
    await open(lab, 'B2-retry-composition');
    const input = kit(lab).staticTimeout;
    const banner = kit(lab).banner;
    const firstRow = await kit(lab).timeoutsFirstRow.textContent();
    for (const [typed, problem] of [['0', '0 is out of range'], ['-100', '-100 is out of range'], ['', 'is empty'], ['1e20', '1e20 is out of range']]) {
      await input.fill(typed);
      await input.press('Enter');
      await expect(banner).toContainText(`Static timeout (ms): ${problem}; expected a whole number from 1 to 600 000 ms`);
      await expect(input).toHaveValue('700');
      await expect(kit(lab).timeoutsFirstRow).toHaveText(firstRow ?? '');
    }
    await input.fill('300');
    await input.press('Enter');
    await expect(input).toHaveValue('300');
    await expect(kit(lab).timeoutsFirstRow).not.toHaveText(firstRow ?? '');
  });

  test('S2 at t = 0: nothing is running after the cancel yet; the end-of-run totals say "by the end"', async ({ lab }) => {
    await open(lab, 'S2-timeouts-cancel');
    await expect(kit(lab).storm('layer-2-after-cancel')).toHaveCount(0);
    await expect(kit(lab).storm('exec-after-cancel')).toHaveCount(0);
    await expect(kit(lab).storm('layer-2-after-cancel-end')).toHaveText('by the end: 23 ran on after the cancel');
    await expect(kit(lab).storm('exec-after-cancel-end')).toHaveText('by the end: 26 duplicate executions ran at or after the cancel');
    await expect(kit(lab).storm('layer-2')).toContainText('(by the end: 32)');
    await lab.keyboard.press('End');
    await expect(kit(lab).storm('layer-2-after-cancel')).toHaveText('23 still running after the cancel');
    await expect(kit(lab).storm('layer-2-after-cancel-end')).toHaveCount(0);
  });

  test('a link naming B1 with a bad parameter shows B1 and the parameter as ignored', async ({ lab }) => {
    await lab.goto('./#/resilience/B1-concurrent-failures?breaker.threshold=-1');
    await expect(kit(lab).picker).toHaveValue('B1-concurrent-failures');
    const banner = kit(lab).banner;
    await expect(banner).toContainText('Parts of the link are not valid; showing the built-in "B1');
    await expect(banner).toContainText('breaker.threshold: unknown link parameter — ignored; the scenario is kept');
    await expect.poll(() => lab.url()).toContain('#/resilience/B1-concurrent-failures');
    await expect(kit(lab).breaker('half-open-at')).toHaveText('10 100 ms');
  });

  test('pasted JSON imports like a file: another lab named in one line, a good scenario loads', async ({ lab }) => {
    await open(lab, 'B1-concurrent-failures');
    const text = kit(lab).importText;
    await text.fill(JSON.stringify({ format: 1, lab: 'races', id: 'r', title: 'r', seed: 1, config: {}, events: [] }));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).bannerItems).toHaveText(['lab: this is a "races" scenario; open it in the Races lab (#/races)']);
    await expect(kit(lab).picker).toHaveValue('B1-concurrent-failures');
    const s2 = await lab.evaluate(() => fetch('scenarios/resilience/S3-gateway-receipt.json').then((r) => r.text()));
    await text.fill(s2.replace('"title": "', '"title": "Pasted '));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).heading).toContainText('Pasted');
    await expect(kit(lab).storm('executions')).toHaveText('4 (2)');
    await expect(text).toHaveValue('');
  });
});

test.describe('Resilience lab: input and accessibility', () => {
  test('the address is the share link: an edited scenario opens the same elsewhere; a bad link keeps a working lab', async ({ lab, browser }) => {
    await open(lab, 'S1-three-layers');
    await kit(lab).toggle('fixes.retryBudget').check();
    await expect(kit(lab).storm('upstream-attempts')).not.toHaveText('64');
    const attempts = await kit(lab).storm('upstream-attempts').textContent();
    await expect.poll(() => lab.url()).toContain('#/resilience?scenario=');
    const other = await browser.newPage();
    await other.goto(lab.url());
    await expect(kit(other).storm('upstream-attempts')).toHaveText(attempts ?? '');
    await expect(kit(other).toggle('fixes.retryBudget')).toBeChecked();
    await other.close();
    // Opened fresh (a link followed inside the tab is reported and the address restored instead).
    await lab.goto('about:blank');
    await lab.goto('./#/resilience?scenario=not-base64!!');
    await expect(kit(lab).banner).toContainText('scenario');
    await expect(kit(lab).task('status')).toHaveText(/\w+/);
  });

  test('a garbage link and an unknown id each show their error and the scenario shown instead', async ({ lab }) => {
    await lab.goto('./#/resilience/x?s=garbage');
    const banner = kit(lab).banner;
    await expect(banner).toContainText('The link does not hold a valid resilience scenario; showing "T1 · Abort before the task id is known" instead');
    await expect(banner).toContainText('s: unknown link parameter — ignored');
    await expect(kit(lab).picker).toHaveValue('T1-abort-before-task-id');
    await lab.goto('about:blank');
    await lab.goto('./#/resilience/no-such-scenario');
    await expect(banner).toContainText('showing "T1 · Abort before the task id is known" instead');
    await expect(banner).toContainText('scenario id (in the link): no built-in scenario is called "no-such-scenario"');
    await expect(kit(lab).task('status')).toHaveText('cancelled at 2 000 ms');
    // A bad link followed from a working page keeps that page's scenario, and says so.
    await open(lab, 'S3-gateway-receipt');
    await expect(banner).toHaveCount(0);
    await lab.evaluate(() => (window.location.hash = '#/resilience?scenario=garbage'));
    await expect(banner).toContainText('still showing "S3');
    await expect(banner).toContainText('scenario (in the link):');
    await expect(kit(lab).storm('executions')).toHaveText('4 (2)');
  });

  test('another lab\'s file is named in one line, with where to open it', async ({ lab }) => {
    await open(lab, 'B1-concurrent-failures');
    const races = { format: 1, lab: 'races', id: 'r', title: 'r', seed: 1, config: {}, events: [] };
    await kit(lab).fileInput.setInputFiles({ name: 'r.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(races)) });
    const banner = kit(lab).banner;
    await expect(kit(lab).bannerItems).toHaveText(['lab: this is a "races" scenario; open it in the Races lab (#/races)']);
    await expect(banner).toContainText('The file r.json is not a resilience scenario; the previous scenario is kept');
    await expect(kit(lab).picker).toHaveValue('B1-concurrent-failures');
  });

  test('a malformed scenario file names the field and keeps the previous scenario', async ({ lab }) => {
    await open(lab, 'B1-concurrent-failures');
    const bad = { format: 1, lab: 'resilience', id: 'x', title: 'x', config: { mechanism: 'breaker' }, events: [{ id: 'a', at: 'soon', actor: 'client', kind: 'request' }] };
    await kit(lab).fileInput.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
    await expect(kit(lab).banner).toContainText('events[0].at');
    await expect(kit(lab).picker).toHaveValue('B1-concurrent-failures');
    await expect(kit(lab).breaker('half-open-at')).toHaveText('10 100 ms');
  });

  test('keyboard stepping moves the clock; no serious axe violations in either theme', async ({ lab }) => {
    await open(lab, 'T3-finish-before-checkpoint');
    await kit(lab).clickPageCorner();
    await lab.keyboard.press('End');
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '2000');
    await lab.keyboard.press('ArrowLeft');
    await expect(kit(lab).clock).not.toHaveAttribute('data-ms', '2000');
    for (const scheme of ['light', 'dark'] as const) {
      await lab.emulateMedia({ colorScheme: scheme });
      const results = await new AxeBuilder({ page: lab }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${scheme} ${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
    }
  });
});
