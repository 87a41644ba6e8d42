import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LedgerPage } from './pages/ledger';

/** This spec's page object (e2e/pages/lab.ts) on `page`. */
const kit = (page: Page) => new LedgerPage(page);

async function openLedger(page: Page, scenarioId = 'A-race-two-connections') {
  await kit(page).openOn(scenarioId);
}

/** The lab opens with the playhead at 0 (like every lab); the views that follow it need the end. */
async function jumpToEnd(page: Page) {
  await kit(page).jumpToEndButton.click();
}

/** Drags a handle so that it lands on the x position of another handle (same time). */
async function dragOnto(page: Page, handleId: string, targetId: string) {
  await kit(page).dragEventOnto(handleId, targetId, 10);
}

test.describe('Ledger lab: two connections racing on one key', () => {
  test('dragging B before A\'s write executes twice under naive check-then-act; BEGIN IMMEDIATE executes once', async ({ lab }) => {
    await openLedger(lab);
    // Opens at 0 ms, like the other labs.
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await jumpToEnd(lab);
    await expect(kit(lab).executions).toHaveText('1');
    await expect(kit(lab).reply('B')).toHaveText('replayed');
    // B begins at A's read (10 ms) and reads at A's execute (20 ms): both read "no record" before A writes at 30 ms.
    await dragOnto(lab, 'B-begin', 'A-read');
    await dragOnto(lab, 'B-read', 'A-execute');
    await expect(kit(lab).event('B-begin')).toHaveAttribute('aria-label', 'connection B begin at 10 ms');
    await expect(kit(lab).event('B-read')).toHaveAttribute('aria-label', 'connection B read at 20 ms');
    await expect(kit(lab).executions).toHaveText('2');
    await expect(kit(lab).invariant('at-most-once')).toHaveAttribute('data-status', 'violated');
    await expect(kit(lab).table('charges')).toHaveAttribute('data-rows', '2');
    // The address holds the edited scenario: a reload shows the same double execution.
    await expect(lab).toHaveURL(/#\/ledger\?scenario=/);
    await lab.reload();
    await expect(kit(lab).executions).toHaveText('2', { timeout: 15_000 });
    await jumpToEnd(lab);
    // Same order, atomic policy: B waits for the write lock, then finds A's record.
    await kit(lab).setPolicy('immediate');
    await expect(kit(lab).executions).toHaveText('1');
    await expect(kit(lab).reply('B')).toHaveText('replayed');
    await expect(kit(lab).invariant('at-most-once')).toHaveAttribute('data-status', 'holds');
    await kit(lab).setPolicy('claim');
    await expect(kit(lab).executions).toHaveText('1');
    await expect(kit(lab).reply('B')).toHaveText('in-use');
    // Undo walks back to naive with two executions.
    await kit(lab).undoButton.click();
    await kit(lab).undoButton.click();
    await expect(kit(lab).executions).toHaveText('2');
  });

  test('a step cannot be dragged past its own connection\'s later steps; the atomic policies still never execute twice', async ({ lab }) => {
    test.setTimeout(90_000);
    await openLedger(lab);
    const grab = await kit(lab).grabEvent('B-execute');
    await grab.moveBy(400, 0, 10); // far past B's commit (140 ms)
    await grab.release();
    await expect(kit(lab).event('B-execute')).toHaveAttribute('aria-label', 'connection B execute at 130 ms');
    await expect(kit(lab).laneNotice).toHaveText(/^connection B's execute stays after its read \(110 ms\) and before its write \(130 ms\): a connection runs its own steps in order/);
    await kit(lab).explore.run();
    await expect(kit(lab).explore.variant('claim')).toBeVisible({ timeout: 25_000 });
    for (const v of ['deferred', 'immediate-wait', 'immediate-error', 'claim']) await expect(kit(lab).explore.variant(v)).toHaveAttribute('data-twice', '0');
  });

  test('all 252 orders per policy: naive executes twice in 200, the atomic policies never; the counterexample opens on the timeline', async ({ lab }) => {
    test.setTimeout(90_000); // 1,260 real-SQL replays in a worker
    await openLedger(lab);
    await expect(kit(lab).explore.runButton).toHaveText('Explore 252 interleavings × 5 policies = 1260 replays');
    await kit(lab).explore.run();
    await expect(kit(lab).explore.variant('claim')).toBeVisible({ timeout: 25_000 });
    await expect(kit(lab).explore.variant('naive')).toHaveAttribute('data-twice', '200');
    for (const v of ['deferred', 'immediate-wait', 'immediate-error', 'claim']) await expect(kit(lab).explore.variant(v)).toHaveAttribute('data-twice', '0');
    await expect(kit(lab).explore.progress).toHaveAttribute('value', '1260');
    await kit(lab).explore.openCounterexample('naive');
    await expect(kit(lab).executions).toHaveText('2');
    await expect(kit(lab).policy).toHaveValue('naive');
  });

  test('a long exploration can be cancelled and the page stays responsive', async ({ lab }) => {
    await openLedger(lab);
    await kit(lab).explore.run();
    await kit(lab).explore.cancel();
    await expect(kit(lab).explore.status(/— cancelled/)).toBeVisible();
    await kit(lab).setPolicy('claim');
    await expect(kit(lab).reply('B')).toHaveText('replayed');
  });
});

test.describe('Ledger lab: the lesson\'s expectations', () => {
  test('each expectation applies its policy and ticks when the trace meets it', async ({ lab }) => {
    await openLedger(lab, 'B-race-interleaved');
    await expect(kit(lab).lessonRow(0)).toHaveAttribute('data-met', 'yes'); // naive: both execute
    await expect(kit(lab).lessonRow(3)).toHaveAttribute('data-met', 'no');
    await kit(lab).pressInLesson(3, 'Apply'); // deferred BEGIN
    await expect(kit(lab).lessonRow(3)).toHaveAttribute('data-met', 'yes');
    await expect(kit(lab).policy).toHaveValue('deferred');
    await expect(kit(lab).reply('B')).toHaveText('busy');
    await expect(kit(lab).lessonRow(0)).toHaveAttribute('data-met', 'no');
  });
});

test.describe('Ledger lab: the shared playhead bar', () => {
  test('Play runs the playhead to the last step and stops there', async ({ lab }) => {
    await openLedger(lab);
    await kit(lab).jumpToStartButton.click();
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await kit(lab).playButton.click();
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '140', { timeout: 20_000 });
    await expect(kit(lab).playButton).toBeVisible();
    await expect(kit(lab).executions).toHaveText('1');
  });
});

test.describe('Ledger lab: field cases', () => {
  test('lost response: a stable key gives 409 then the replay (one charge); a key per retry charges three times', async ({ lab }) => {
    await openLedger(lab, 'F-lost-response');
    await jumpToEnd(lab);
    await expect(kit(lab).executions).toHaveText('1');
    await expect(kit(lab).call(2)).toContainText('in-use');
    await expect(kit(lab).call(3)).toContainText('replayed charge-001 of id 1');
    // The wire: each retry has a new JSON-RPC id and the same key; the first result never reached the client.
    const wire = kit(lab).wire;
    await expect(wire).toContainText('client → server: tools/call id 2 charge(acct-3, 4500) key "pay-2211"');
    await expect(wire).toContainText('3000 ms server → client: result for id 1: charge-001: 4500 cents from acct-3 (lost: the client had given up)');
    await kit(lab).setClientKey('per-attempt');
    await expect(kit(lab).executions).toHaveText('3');
  });

  test('at phone width (390 px) the timeline\'s labels stay inside the plot and "timeout" clears "call 1"', async ({ lab }) => {
    await lab.setViewportSize({ width: 390, height: 900 });
    await openLedger(lab, 'F-lost-response');
    await jumpToEnd(lab);
    const marks = kit(lab).marks;
    // Call 1 starts at 0 ms: its handle's centre is the plot's left edge.
    const call1Handle = (await kit(lab).event('call-1').boundingBox())!;
    const plotLeft = call1Handle.x + call1Handle.width / 2;
    const spanLabel = marks.spanLabels.first();
    // Too long for either side of the bar's end: shortened (middle words first), the whole text as its tooltip.
    await expect(spanLabel).toHaveText(/^executed .*\(lost\)$/);
    await expect(marks.titleOf(spanLabel)).toHaveText('executed charge-001 (lost)');
    const sb = (await spanLabel.boundingBox())!;
    expect(sb.x).toBeGreaterThanOrEqual(plotLeft - 1);
    const timeout = (await marks.markerLabel('timeout').boundingBox())!;
    const call1 = (await marks.handleLabel('call 1').boundingBox())!;
    expect(timeout.x >= call1.x + call1.width || timeout.x + timeout.width <= call1.x).toBe(true);
  });
});

test.describe('Ledger lab: my ledger persists, downloads and uploads', () => {
  test('a charge survives a reload; the download opens in the sqlite3 shell; uploads are checked', async ({ lab }) => {
    await openLedger(lab);
    await kit(lab).my.key.fill('order-77');
    await kit(lab).my.cents.fill('1250');
    await kit(lab).my.send();
    await expect(kit(lab).my.reply).toContainText('executed charge-001');
    await kit(lab).my.send();
    await expect(kit(lab).my.reply).toContainText('replayed charge-001 (request 1)');
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '1');
    // An absurd amount is refused with the cap named; nothing is charged.
    await kit(lab).my.key.fill('order-huge');
    await kit(lab).my.cents.fill('1e20');
    await kit(lab).my.send();
    await expect(kit(lab).my.reply).toHaveText("Request 3: invalid cents must be at most 10000000000 (100 million per charge, this lab's cap), got 100000000000000000000");
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '1');

    await lab.reload();
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '1', { timeout: 15_000 });
    await expect(kit(lab).my.notice).toHaveText('Restored your saved ledger (1 charge, 1 key record).');

    const [download] = await Promise.all([lab.waitForEvent('download'), kit(lab).my.downloadButton.click()]);
    expect(download.suggestedFilename()).toBe('ledger.sqlite');
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-e2e-'));
    const file = path.join(dir, 'ledger.sqlite');
    await download.saveAs(file);
    const out = execFileSync('/usr/bin/sqlite3', [file, "SELECT receipt || '|' || cents || '|' || key FROM charges; SELECT key || '|' || status FROM idempotency; PRAGMA integrity_check;"], { encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(['charge-001|1250|order-77', 'order-77|completed', 'ok']);

    // Reset, then upload the file back: the ledger continues from it.
    await kit(lab).my.reset();
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '0');
    await kit(lab).my.upload(file);
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '1');
    // The form was reset by the reload: send the same key and amount again.
    await kit(lab).my.key.fill('order-77');
    await kit(lab).my.cents.fill('1250');
    await kit(lab).my.send();
    await expect(kit(lab).my.reply).toContainText('replayed charge-001 (request 1)');

    // A non-SQLite file and a SQLite file of another schema are refused; the ledger stays.
    const junk = path.join(dir, 'notes.sqlite');
    writeFileSync(junk, 'this is not a database '.repeat(20));
    await kit(lab).my.upload(junk);
    await expect(kit(lab).my.error).toHaveText(/^notes\.sqlite was not loaded: this file is not a SQLite database .* Your current ledger is unchanged\.$/);
    const other = path.join(dir, 'other.sqlite');
    execFileSync('/usr/bin/sqlite3', [other, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (1);']);
    await kit(lab).my.upload(other);
    await expect(kit(lab).my.error).toHaveText('other.sqlite was not loaded: it is a SQLite database but not a ledger of this lab: the table "ledger_meta" is missing. Your current ledger is unchanged.');
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '1');
  });

  test('a full storage quota keeps the ledger and says so', async ({ lab }) => {
    await openLedger(lab);
    await lab.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function () {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
      (window as unknown as { __restorePut: () => void }).__restorePut = () => (IDBObjectStore.prototype.put = put);
    });
    await kit(lab).my.send();
    await expect(kit(lab).my.error).toHaveText("Not saved: the browser's storage quota is full, so the ledger could not be saved. The ledger is still here in this tab — download it to keep a copy.");
    await expect(kit(lab).my.charges).toHaveAttribute('data-rows', '1');
  });
});

test.describe('Ledger lab: console, practice, accessibility', () => {
  test('the console queries the database at the playhead and refuses writes inline', async ({ lab }) => {
    await openLedger(lab);
    await jumpToEnd(lab);
    await kit(lab).console.run('SELECT receipt FROM charges');
    await expect(kit(lab).console.result).toHaveAttribute('data-rows', '1');
    await kit(lab).console.run('DELETE FROM charges');
    await expect(kit(lab).console.error).toHaveText('attempt to write a readonly database');
  });

  test('a runaway recursive query is stopped after its budget; the page stays responsive and the ledger unchanged', async ({ lab }) => {
    await openLedger(lab);
    await kit(lab).console.run('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c');
    await expect(kit(lab).console.running).toBeVisible();
    // While the statement runs, the page still answers: the playhead moves and the policy changes.
    await kit(lab).jumpToStartButton.click();
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await kit(lab).setPolicy('claim');
    await expect(kit(lab).reply('B')).toHaveText('replayed');
    await expect(kit(lab).console.error).toHaveText('stopped after 2000 ms: the statement ran too long or built too much data (a recursive query without LIMIT? a huge blob?)', { timeout: 20_000 });
    await expect(kit(lab).console.running).toHaveCount(0);
    // Nothing changed, and the console works again with a fresh worker.
    await expect(kit(lab).executions).toHaveText('1');
    await kit(lab).jumpToEndButton.click();
    await kit(lab).console.run('SELECT receipt FROM charges');
    await expect(kit(lab).console.result).toHaveAttribute('data-rows', '1');
    // Stop ends a running statement at once.
    await kit(lab).console.run('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c');
    await kit(lab).console.stop();
    await expect(kit(lab).console.error).toHaveText('stopped by you before it finished');
  });

  test('the ten practice checks pass on real SQLite in the browser', async ({ lab }) => {
    await openLedger(lab);
    await kit(lab).practice.run();
    await expect(kit(lab).practice.withStatus('pass')).toHaveCount(10);
    // The checks can fail: the naive tool fails all ten; one bug fails its own check only.
    await kit(lab).practice.setVariant('naive');
    await kit(lab).practice.run();
    await expect(kit(lab).practice.withStatus('fail')).toHaveCount(10);
    await kit(lab).practice.setVariant('stores-token');
    await kit(lab).practice.run();
    await expect(kit(lab).practice.check('no-secrets')).toHaveAttribute('data-status', 'fail');
    await expect(kit(lab).practice.check('no-secrets')).toContainText('payment token FOUND');
    await expect(kit(lab).practice.withStatus('pass')).toHaveCount(9);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`no serious accessibility violations (axe, ${theme})`, async ({ lab }) => {
      test.setTimeout(90_000); // two full axe passes; slow on a loaded machine
      await lab.emulateMedia({ colorScheme: theme });
      await openLedger(lab, 'B-race-interleaved');
      await kit(lab).practice.run();
      for (const id of ['B-race-interleaved', 'F-lost-response']) {
        await kit(lab).picker.selectOption(id);
        const results = await new AxeBuilder({ page: lab }).analyze();
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious.map((v) => `${id} ${v.id}: ${v.help} (${v.nodes.length}) ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
      }
    });
  }
});

test.describe('Ledger lab: loading and scenario files', () => {
  test('a bad link names the problem and still shows a working lab', async ({ lab }) => {
    await lab.goto('./#/ledger/no-such-scenario');
    await expect(kit(lab).banner).toContainText('scenario id (in the link): no built-in scenario is called "no-such-scenario"', { timeout: 15_000 });
    await expect(kit(lab).executions).toHaveText('1');
  });

  test('a link pasted into an open tab is followed; a bad one is reported and the address keeps the shown scenario', async ({ lab }) => {
    await openLedger(lab, 'A-race-two-connections');
    await expect(kit(lab).heading).toHaveText(/two connections/i);
    // Another built-in: the page follows the address.
    await lab.evaluate(() => (window.location.hash = '#/ledger/D-same-key'));
    await expect(kit(lab).picker).toHaveValue('D-same-key');
    await expect(kit(lab).banner).toHaveCount(0);
    // A garbage link: the error is shown, D stays, and the address is D again.
    await lab.evaluate(() => (window.location.hash = '#/ledger?scenario=not-base64-json!'));
    await expect(kit(lab).banner).toContainText('The link does not hold a valid ledger scenario; the previous scenario is kept');
    await expect(kit(lab).picker).toHaveValue('D-same-key');
    await expect.poll(() => lab.evaluate(() => window.location.hash)).toBe('#/ledger/D-same-key');
    // Back to A through the address clears the old error banner.
    await lab.evaluate(() => (window.location.hash = '#/ledger/A-race-two-connections'));
    await expect(kit(lab).picker).toHaveValue('A-race-two-connections');
    await expect(kit(lab).banner).toHaveCount(0);
  });

  test('sql.js loads only when the ledger lab opens', async ({ lab }) => {
    const wasm: string[] = [];
    lab.on('request', (r) => {
      if (/sql-wasm|LedgerLab/.test(r.url())) wasm.push(r.url());
    });
    await lab.goto('./#/races');
    await expect(kit(lab).picker).toBeVisible();
    await lab.waitForLoadState('networkidle');
    expect(wasm).toEqual([]);
    await kit(lab).nav('ledger').click();
    await expect(kit(lab).root).toBeVisible({ timeout: 15_000 });
    expect(wasm.some((u) => u.endsWith('.wasm'))).toBe(true);
  });

  test('a bad scenario file is refused field by field; the exported file imports back', async ({ lab }) => {
    await openLedger(lab, 'B-race-interleaved');
    const [download] = await Promise.all([lab.waitForEvent('download'), kit(lab).exportButton.click()]);
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-json-'));
    const good = path.join(dir, 'B.json');
    await download.saveAs(good);
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 1, lab: 'ledger', id: 'x', title: 'x', config: { policy: 'hope' }, events: [{ id: 'a', at: -5, actor: 'db', kind: 'begin', conn: 'A' }] }));
    await kit(lab).picker.selectOption('A-race-two-connections');
    await expect(lab).toHaveURL(/#\/ledger\/A-race-two-connections$/);
    await kit(lab).fileInput.setInputFiles(bad);
    await expect(kit(lab).banner).toContainText('bad.json is not a valid ledger scenario; the previous scenario is kept');
    await expect(kit(lab).banner).toContainText('config.policy:');
    await expect(kit(lab).banner).toContainText('events[0]');
    await expect(kit(lab).executions).toHaveText('1');
    await kit(lab).fileInput.setInputFiles(good);
    await expect(kit(lab).banner).toHaveCount(0);
    await expect(kit(lab).executions).toHaveText('2');
    // Pasted JSON goes through the same checks: another lab's scenario names its lab; a good one loads and the box empties.
    await kit(lab).importText.fill(JSON.stringify({ format: 1, lab: 'races', id: 'r', title: 'r', config: {}, events: [] }));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).banner).toContainText('lab: this is a "races" scenario; open it in the Races lab (#/races)');
    await expect(kit(lab).picker).toHaveValue('B-race-interleaved');
    await kit(lab).picker.selectOption('A-race-two-connections');
    await kit(lab).importText.fill(readFileSync(good, 'utf8'));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).picker).toHaveValue('B-race-interleaved');
    await expect(kit(lab).importText).toHaveValue('');
    await expect(kit(lab).executions).toHaveText('2');
  });

  test('Alt+← reorders two steps at the same millisecond: whoever reads first decides', async ({ lab }) => {
    await openLedger(lab);
    await kit(lab).setPolicy('claim');
    const bRead = kit(lab).event('B-read');
    // B's begin first (a step cannot pass its own connection's earlier step): 100 → 0 ms.
    await kit(lab).nudgeEvent('B-begin', 'ArrowLeft', 10);
    await expect(kit(lab).event('B-begin')).toHaveAttribute('aria-label', 'connection B begin at 0 ms');
    await kit(lab).nudgeEvent('B-read', 'ArrowLeft', 10); // 110 → 10 ms, beside A's read (claim)
    await expect(bRead).toHaveAttribute('aria-label', 'connection B read at 10 ms');
    // File order: A claims first, B finds the key in progress.
    await expect(kit(lab).reply('B')).toHaveText('in-use');
    await lab.keyboard.press('Alt+ArrowLeft');
    await expect(kit(lab).reply('A')).toHaveText('in-use');
    await expect(kit(lab).reply('B')).toHaveText('executed');
  });
});
