import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';

/** This spec's page object (e2e/pages/lab.ts) on `page`. */
const kit = (page: Page) => new LabDriver(page, 'ledger');

async function openLedger(page: Page, scenarioId = 'A-race-two-connections') {
  await page.goto('./#/ledger');
  const picker = kit(page).picker;
  await expect(picker).toBeVisible({ timeout: 15_000 });
  await picker.selectOption(scenarioId);
}

/** The lab opens with the playhead at 0 (like every lab); the views that follow it need the end. */
async function jumpToEnd(page: Page) {
  await kit(page).jumpToEndButton.click();
}

/** Drags a handle so that it lands on the x position of another handle (same time). */
async function dragOnto(page: Page, handleId: string, targetId: string) {
  const box = (await page.getByTestId(`handle-${handleId}`).boundingBox())!;
  const target = (await page.getByTestId(`handle-${targetId}`).boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(target.x + target.width / 2, y, { steps: 10 });
  await page.mouse.up();
}

test.describe('Ledger lab: two connections racing on one key', () => {
  test('dragging B before A\'s write executes twice under naive check-then-act; BEGIN IMMEDIATE executes once', async ({ lab }) => {
    await openLedger(lab);
    // Opens at 0 ms, like the other labs.
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await jumpToEnd(lab);
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('replayed');
    // B begins at A's read (10 ms) and reads at A's execute (20 ms): both read "no record" before A writes at 30 ms.
    await dragOnto(lab, 'B-begin', 'A-read');
    await dragOnto(lab, 'B-read', 'A-execute');
    await expect(lab.getByTestId('handle-B-begin')).toHaveAttribute('aria-label', 'connection B begin at 10 ms');
    await expect(lab.getByTestId('handle-B-read')).toHaveAttribute('aria-label', 'connection B read at 20 ms');
    await expect(lab.getByTestId('outcome-executions')).toHaveText('2');
    await expect(kit(lab).invariant('at-most-once')).toHaveAttribute('data-status', 'violated');
    await expect(lab.getByTestId('table-charges')).toHaveAttribute('data-rows', '2');
    // The address holds the edited scenario: a reload shows the same double execution.
    await expect(lab).toHaveURL(/#\/ledger\?scenario=/);
    await lab.reload();
    await expect(lab.getByTestId('outcome-executions')).toHaveText('2', { timeout: 15_000 });
    await jumpToEnd(lab);
    // Same order, atomic policy: B waits for the write lock, then finds A's record.
    await lab.getByTestId('policy').selectOption('immediate');
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('replayed');
    await expect(kit(lab).invariant('at-most-once')).toHaveAttribute('data-status', 'holds');
    await lab.getByTestId('policy').selectOption('claim');
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('in-use');
    // Undo walks back to naive with two executions.
    await kit(lab).undoButton.click();
    await kit(lab).undoButton.click();
    await expect(lab.getByTestId('outcome-executions')).toHaveText('2');
  });

  test('a step cannot be dragged past its own connection\'s later steps; the atomic policies still never execute twice', async ({ lab }) => {
    test.setTimeout(90_000);
    await openLedger(lab);
    const box = (await lab.getByTestId('handle-B-execute').boundingBox())!;
    const y = box.y + box.height / 2;
    await lab.mouse.move(box.x + box.width / 2, y);
    await lab.mouse.down();
    await lab.mouse.move(box.x + box.width / 2 + 400, y, { steps: 10 }); // far past B's commit (140 ms)
    await lab.mouse.up();
    await expect(lab.getByTestId('handle-B-execute')).toHaveAttribute('aria-label', 'connection B execute at 130 ms');
    await expect(lab.getByTestId('lane-notice')).toHaveText(/^connection B's execute stays after its read \(110 ms\) and before its write \(130 ms\): a connection runs its own steps in order/);
    await lab.getByTestId('explore-run').click();
    await expect(lab.getByTestId('explore-claim')).toBeVisible({ timeout: 25_000 });
    for (const v of ['deferred', 'immediate-wait', 'immediate-error', 'claim']) await expect(lab.getByTestId(`explore-${v}`)).toHaveAttribute('data-twice', '0');
  });

  test('all 252 orders per policy: naive executes twice in 200, the atomic policies never; the counterexample opens on the timeline', async ({ lab }) => {
    test.setTimeout(90_000); // 1,260 real-SQL replays in a worker
    await openLedger(lab);
    await expect(lab.getByTestId('explore-run')).toHaveText('Explore 252 interleavings × 5 policies = 1260 replays');
    await lab.getByTestId('explore-run').click();
    await expect(lab.getByTestId('explore-claim')).toBeVisible({ timeout: 25_000 });
    await expect(lab.getByTestId('explore-naive')).toHaveAttribute('data-twice', '200');
    for (const v of ['deferred', 'immediate-wait', 'immediate-error', 'claim']) await expect(lab.getByTestId(`explore-${v}`)).toHaveAttribute('data-twice', '0');
    await expect(lab.getByTestId('explore-progress')).toHaveAttribute('value', '1260');
    await lab.getByTestId('open-counterexample-naive').click();
    await expect(lab.getByTestId('outcome-executions')).toHaveText('2');
    await expect(lab.getByTestId('policy')).toHaveValue('naive');
  });

  test('a long exploration can be cancelled and the page stays responsive', async ({ lab }) => {
    await openLedger(lab);
    await lab.getByTestId('explore-run').click();
    await lab.getByTestId('explore-cancel').click();
    await expect(lab.getByText(/— cancelled/)).toBeVisible();
    await lab.getByTestId('policy').selectOption('claim');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('replayed');
  });
});

test.describe('Ledger lab: the lesson\'s expectations', () => {
  test('each expectation applies its policy and ticks when the trace meets it', async ({ lab }) => {
    await openLedger(lab, 'B-race-interleaved');
    await expect(lab.getByTestId('lesson-0')).toHaveAttribute('data-met', 'yes'); // naive: both execute
    await expect(lab.getByTestId('lesson-3')).toHaveAttribute('data-met', 'no');
    await lab.getByTestId('lesson-3').getByRole('button', { name: 'Apply' }).click(); // deferred BEGIN
    await expect(lab.getByTestId('lesson-3')).toHaveAttribute('data-met', 'yes');
    await expect(lab.getByTestId('policy')).toHaveValue('deferred');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('busy');
    await expect(lab.getByTestId('lesson-0')).toHaveAttribute('data-met', 'no');
  });
});

test.describe('Ledger lab: the shared playhead bar', () => {
  test('Play runs the playhead to the last step and stops there', async ({ lab }) => {
    await openLedger(lab);
    await lab.getByRole('button', { name: 'Jump to start' }).click();
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await lab.getByRole('button', { name: 'Play', exact: true }).click();
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '140', { timeout: 20_000 });
    await expect(lab.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
  });
});

test.describe('Ledger lab: field cases', () => {
  test('lost response: a stable key gives 409 then the replay (one charge); a key per retry charges three times', async ({ lab }) => {
    await openLedger(lab, 'F-lost-response');
    await jumpToEnd(lab);
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
    await expect(lab.getByTestId('call-2')).toContainText('in-use');
    await expect(lab.getByTestId('call-3')).toContainText('replayed charge-001 of id 1');
    // The wire: each retry has a new JSON-RPC id and the same key; the first result never reached the client.
    const wire = lab.getByTestId('wire-list');
    await expect(wire).toContainText('client → server: tools/call id 2 charge(acct-3, 4500) key "pay-2211"');
    await expect(wire).toContainText('3000 ms server → client: result for id 1: charge-001: 4500 cents from acct-3 (lost: the client had given up)');
    await lab.getByTestId('client-key').selectOption('per-attempt');
    await expect(lab.getByTestId('outcome-executions')).toHaveText('3');
  });

  test('at phone width (390 px) the timeline\'s labels stay inside the plot and "timeout" clears "call 1"', async ({ lab }) => {
    await lab.setViewportSize({ width: 390, height: 900 });
    await openLedger(lab, 'F-lost-response');
    await jumpToEnd(lab);
    const svg = lab.locator('.tl-svg').first();
    // Call 1 starts at 0 ms: its handle's centre is the plot's left edge.
    const call1Handle = (await lab.getByTestId('handle-call-1').boundingBox())!;
    const plotLeft = call1Handle.x + call1Handle.width / 2;
    const spanLabel = svg.locator('.tl-span-label').first();
    // Too long for either side of the bar's end: shortened (middle words first), the whole text as its tooltip.
    await expect(spanLabel).toHaveText(/^executed .*\(lost\)$/);
    await expect(spanLabel.locator('title')).toHaveText('executed charge-001 (lost)');
    const sb = (await spanLabel.boundingBox())!;
    expect(sb.x).toBeGreaterThanOrEqual(plotLeft - 1);
    const timeout = (await svg.locator('.tl-marker-label', { hasText: 'timeout' }).boundingBox())!;
    const call1 = (await svg.locator('.tl-handle-label', { hasText: 'call 1' }).boundingBox())!;
    expect(timeout.x >= call1.x + call1.width || timeout.x + timeout.width <= call1.x).toBe(true);
  });
});

test.describe('Ledger lab: my ledger persists, downloads and uploads', () => {
  test('a charge survives a reload; the download opens in the sqlite3 shell; uploads are checked', async ({ lab }) => {
    await openLedger(lab);
    await lab.getByTestId('my-key').fill('order-77');
    await lab.getByTestId('my-cents').fill('1250');
    await lab.getByTestId('my-send').click();
    await expect(lab.getByTestId('my-reply')).toContainText('executed charge-001');
    await lab.getByTestId('my-send').click();
    await expect(lab.getByTestId('my-reply')).toContainText('replayed charge-001 (request 1)');
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '1');
    // An absurd amount is refused with the cap named; nothing is charged.
    await lab.getByTestId('my-key').fill('order-huge');
    await lab.getByTestId('my-cents').fill('1e20');
    await lab.getByTestId('my-send').click();
    await expect(lab.getByTestId('my-reply')).toHaveText("Request 3: invalid cents must be at most 10000000000 (100 million per charge, this lab's cap), got 100000000000000000000");
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '1');

    await lab.reload();
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '1', { timeout: 15_000 });
    await expect(lab.getByTestId('my-notice')).toHaveText('Restored your saved ledger (1 charge, 1 key record).');

    const [download] = await Promise.all([lab.waitForEvent('download'), lab.getByTestId('my-download').click()]);
    expect(download.suggestedFilename()).toBe('ledger.sqlite');
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-e2e-'));
    const file = path.join(dir, 'ledger.sqlite');
    await download.saveAs(file);
    const out = execFileSync('/usr/bin/sqlite3', [file, "SELECT receipt || '|' || cents || '|' || key FROM charges; SELECT key || '|' || status FROM idempotency; PRAGMA integrity_check;"], { encoding: 'utf8' });
    expect(out.trim().split('\n')).toEqual(['charge-001|1250|order-77', 'order-77|completed', 'ok']);

    // Reset, then upload the file back: the ledger continues from it.
    await lab.getByTestId('my-reset').click();
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '0');
    await lab.getByTestId('my-upload').setInputFiles(file);
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '1');
    // The form was reset by the reload: send the same key and amount again.
    await lab.getByTestId('my-key').fill('order-77');
    await lab.getByTestId('my-cents').fill('1250');
    await lab.getByTestId('my-send').click();
    await expect(lab.getByTestId('my-reply')).toContainText('replayed charge-001 (request 1)');

    // A non-SQLite file and a SQLite file of another schema are refused; the ledger stays.
    const junk = path.join(dir, 'notes.sqlite');
    writeFileSync(junk, 'this is not a database '.repeat(20));
    await lab.getByTestId('my-upload').setInputFiles(junk);
    await expect(lab.getByTestId('my-error')).toHaveText(/^notes\.sqlite was not loaded: this file is not a SQLite database .* Your current ledger is unchanged\.$/);
    const other = path.join(dir, 'other.sqlite');
    execFileSync('/usr/bin/sqlite3', [other, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (1);']);
    await lab.getByTestId('my-upload').setInputFiles(other);
    await expect(lab.getByTestId('my-error')).toHaveText('other.sqlite was not loaded: it is a SQLite database but not a ledger of this lab: the table "ledger_meta" is missing. Your current ledger is unchanged.');
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '1');
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
    await lab.getByTestId('my-send').click();
    await expect(lab.getByTestId('my-error')).toHaveText("Not saved: the browser's storage quota is full, so the ledger could not be saved. The ledger is still here in this tab — download it to keep a copy.");
    await expect(lab.getByTestId('my-charges')).toHaveAttribute('data-rows', '1');
  });
});

test.describe('Ledger lab: console, practice, accessibility', () => {
  test('the console queries the database at the playhead and refuses writes inline', async ({ lab }) => {
    await openLedger(lab);
    await jumpToEnd(lab);
    await lab.getByTestId('console-sql').fill('SELECT receipt FROM charges');
    await lab.getByTestId('console-run').click();
    await expect(lab.getByTestId('console-result')).toHaveAttribute('data-rows', '1');
    await lab.getByTestId('console-sql').fill('DELETE FROM charges');
    await lab.getByTestId('console-run').click();
    await expect(lab.getByTestId('console-error')).toHaveText('attempt to write a readonly database');
  });

  test('a runaway recursive query is stopped after its budget; the page stays responsive and the ledger unchanged', async ({ lab }) => {
    await openLedger(lab);
    await lab.getByTestId('console-sql').fill('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c');
    await lab.getByTestId('console-run').click();
    await expect(lab.getByTestId('console-running')).toBeVisible();
    // While the statement runs, the page still answers: the playhead moves and the policy changes.
    await lab.getByRole('button', { name: 'Jump to start' }).click();
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await lab.getByTestId('policy').selectOption('claim');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('replayed');
    await expect(lab.getByTestId('console-error')).toHaveText('stopped after 2000 ms: the statement ran too long or built too much data (a recursive query without LIMIT? a huge blob?)', { timeout: 20_000 });
    await expect(lab.getByTestId('console-running')).toHaveCount(0);
    // Nothing changed, and the console works again with a fresh worker.
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
    await kit(lab).jumpToEndButton.click();
    await lab.getByTestId('console-sql').fill('SELECT receipt FROM charges');
    await lab.getByTestId('console-run').click();
    await expect(lab.getByTestId('console-result')).toHaveAttribute('data-rows', '1');
    // Stop ends a running statement at once.
    await lab.getByTestId('console-sql').fill('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c');
    await lab.getByTestId('console-run').click();
    await lab.getByTestId('console-stop').click();
    await expect(lab.getByTestId('console-error')).toHaveText('stopped by you before it finished');
  });

  test('the ten practice checks pass on real SQLite in the browser', async ({ lab }) => {
    await openLedger(lab);
    await lab.getByTestId('practice-run').click();
    await expect(lab.locator('[data-testid^="practice-"][data-status="pass"]')).toHaveCount(10);
    // The checks can fail: the naive tool fails all ten; one bug fails its own check only.
    await lab.getByTestId('practice-variant').selectOption('naive');
    await lab.getByTestId('practice-run').click();
    await expect(lab.locator('[data-testid^="practice-"][data-status="fail"]')).toHaveCount(10);
    await lab.getByTestId('practice-variant').selectOption('stores-token');
    await lab.getByTestId('practice-run').click();
    await expect(lab.getByTestId('practice-no-secrets')).toHaveAttribute('data-status', 'fail');
    await expect(lab.getByTestId('practice-no-secrets')).toContainText('payment token FOUND');
    await expect(lab.locator('[data-testid^="practice-"][data-status="pass"]')).toHaveCount(9);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`no serious accessibility violations (axe, ${theme})`, async ({ lab }) => {
      test.setTimeout(90_000); // two full axe passes; slow on a loaded machine
      await lab.emulateMedia({ colorScheme: theme });
      await openLedger(lab, 'B-race-interleaved');
      await lab.getByTestId('practice-run').click();
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
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
  });

  test('a link pasted into an open tab is followed; a bad one is reported and the address keeps the shown scenario', async ({ lab }) => {
    await openLedger(lab, 'A-race-two-connections');
    await expect(lab.getByRole('heading', { level: 1 })).toHaveText(/two connections/i);
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
    await lab.getByRole('link', { name: /Ledger/ }).click();
    await expect(lab.getByTestId('ledger-lab')).toBeVisible({ timeout: 15_000 });
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
    await expect(lab.getByTestId('outcome-executions')).toHaveText('1');
    await kit(lab).fileInput.setInputFiles(good);
    await expect(kit(lab).banner).toHaveCount(0);
    await expect(lab.getByTestId('outcome-executions')).toHaveText('2');
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
    await expect(lab.getByTestId('outcome-executions')).toHaveText('2');
  });

  test('Alt+← reorders two steps at the same millisecond: whoever reads first decides', async ({ lab }) => {
    await openLedger(lab);
    await lab.getByTestId('policy').selectOption('claim');
    const bRead = lab.getByTestId('handle-B-read');
    // B's begin first (a step cannot pass its own connection's earlier step): 100 → 0 ms.
    await lab.getByTestId('handle-B-begin').focus();
    for (let i = 0; i < 10; i++) await lab.keyboard.press('ArrowLeft');
    await expect(lab.getByTestId('handle-B-begin')).toHaveAttribute('aria-label', 'connection B begin at 0 ms');
    await bRead.focus();
    for (let i = 0; i < 10; i++) await lab.keyboard.press('ArrowLeft'); // 110 → 10 ms, beside A's read (claim)
    await expect(bRead).toHaveAttribute('aria-label', 'connection B read at 10 ms');
    // File order: A claims first, B finds the key in progress.
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('in-use');
    await lab.keyboard.press('Alt+ArrowLeft');
    await expect(lab.getByTestId('conn-A-reply')).toHaveText('in-use');
    await expect(lab.getByTestId('conn-B-reply')).toHaveText('executed');
  });
});
