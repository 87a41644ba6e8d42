import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { LedgerPage } from './pages/ledger';
import { loadSqlJsNode } from '../src/db/node';
import { memoryOpener } from '../src/db/sqljs';
import { createLedger, fillLedger } from '../src/sim/ledger';

const CHARGES = 25_000;

/** A ledger file with `n` charges, as `charge()` would have written them (fillLedger). */
async function bigLedgerFile(n: number): Promise<string> {
  const db = memoryOpener(await loadSqlJsNode())();
  createLedger(db);
  fillLedger(db, n);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ledger-big-')), 'big.sqlite');
  writeFileSync(file, db.export());
  db.close();
  return file;
}

test.describe('Ledger lab: a big ledger upload (issue 10 item 6)', () => {
  test('a file with 25,000 charges opens in the worker, shows one page with the SQL count, and pages', async ({ lab: page }) => {
    const file = await bigLedgerFile(CHARGES);
    const { my } = await new LedgerPage(page).open('A-race-two-connections');
    const engine = my.engine;
    // The learner's ledger runs in the worker from the start: the restored or new ledger was opened there.
    await expect(engine).toHaveAttribute('data-thread', 'worker');
    const opensBefore = Number(await engine.getAttribute('data-opens'));

    await my.upload(file);
    await expect(my.notice).toHaveText('Loaded big.sqlite: 25,000 charge(s), 25,000 key record(s). Charges continue from it.', { timeout: 60_000 });
    // The upload was opened and checked by the worker's SQLite (one more database opened there, none on the page).
    await expect(engine).toHaveAttribute('data-thread', 'worker');
    await expect(engine).toHaveAttribute('data-opens', String(opensBefore + 1));

    const charges = my.charges;
    await expect(charges).toHaveAttribute('data-rows', '100');
    await expect(charges).toHaveAttribute('data-total', String(CHARGES));
    await expect(my.chargesCaption).toHaveText('charges (25,000 rows)');
    await expect(my.idempotency).toHaveAttribute('data-total', String(CHARGES));
    await expect(my.chargesRows).toHaveCount(100);
    const range = my.pagerRange;
    await expect(range).toHaveText('rows 1–100 of 25,000');
    await expect(my.firstReceipt).toHaveText('charge-001');
    await expect(my.prevPageButton).toBeDisabled();

    await my.nextPage();
    await expect(range).toHaveText('rows 101–200 of 25,000');
    await expect(my.firstReceipt).toHaveText('charge-101');
    await my.nextPage();
    await expect(range).toHaveText('rows 201–300 of 25,000');
    await my.prevPage();
    await expect(range).toHaveText('rows 101–200 of 25,000');
    await expect(charges).toHaveAttribute('data-rows', '100');

    // The next charge continues the big ledger: a new receipt, the count from SQL grows by one.
    await my.fill('after-upload');
    await my.send();
    await expect(my.reply).toContainText('executed charge-25001');
    await expect(charges).toHaveAttribute('data-total', String(CHARGES + 1));
    await expect(range).toHaveText('rows 101–200 of 25,001');

    // A bad upload keeps the big ledger, with a clear error.
    const junk = path.join(path.dirname(file), 'notes.sqlite');
    writeFileSync(junk, 'this is not a database '.repeat(20));
    await my.upload(junk);
    await expect(my.error).toHaveText(/^notes\.sqlite was not loaded: this file is not a SQLite database .* Your current ledger is unchanged\.$/);
    await expect(charges).toHaveAttribute('data-total', String(CHARGES + 1));
  });
});
