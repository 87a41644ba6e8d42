import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';
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
    await new LabDriver(page, 'ledger').open('A-race-two-connections');
    const engine = page.getByTestId('my-engine');
    // The learner's ledger runs in the worker from the start: the restored or new ledger was opened there.
    await expect(engine).toHaveAttribute('data-thread', 'worker');
    const opensBefore = Number(await engine.getAttribute('data-opens'));

    await page.getByTestId('my-upload').setInputFiles(file);
    await expect(page.getByTestId('my-notice')).toHaveText('Loaded big.sqlite: 25,000 charge(s), 25,000 key record(s). Charges continue from it.', { timeout: 60_000 });
    // The upload was opened and checked by the worker's SQLite (one more database opened there, none on the page).
    await expect(engine).toHaveAttribute('data-thread', 'worker');
    await expect(engine).toHaveAttribute('data-opens', String(opensBefore + 1));

    const charges = page.getByTestId('my-charges');
    await expect(charges).toHaveAttribute('data-rows', '100');
    await expect(charges).toHaveAttribute('data-total', String(CHARGES));
    await expect(charges.locator('caption')).toHaveText('charges (25,000 rows)');
    await expect(page.getByTestId('my-idempotency')).toHaveAttribute('data-total', String(CHARGES));
    await expect(charges.locator('tbody tr')).toHaveCount(100);
    const range = page.getByTestId('my-charges-pager-range');
    await expect(range).toHaveText('rows 1–100 of 25,000');
    await expect(charges.locator('tbody tr').first().locator('td').first()).toHaveText('charge-001');
    await expect(page.getByTestId('my-charges-pager-prev')).toBeDisabled();

    await page.getByTestId('my-charges-pager-next').click();
    await expect(range).toHaveText('rows 101–200 of 25,000');
    await expect(charges.locator('tbody tr').first().locator('td').first()).toHaveText('charge-101');
    await page.getByTestId('my-charges-pager-next').click();
    await expect(range).toHaveText('rows 201–300 of 25,000');
    await page.getByTestId('my-charges-pager-prev').click();
    await expect(range).toHaveText('rows 101–200 of 25,000');
    await expect(charges).toHaveAttribute('data-rows', '100');

    // The next charge continues the big ledger: a new receipt, the count from SQL grows by one.
    await page.getByTestId('my-key').fill('after-upload');
    await page.getByTestId('my-send').click();
    await expect(page.getByTestId('my-reply')).toContainText('executed charge-25001');
    await expect(charges).toHaveAttribute('data-total', String(CHARGES + 1));
    await expect(range).toHaveText('rows 101–200 of 25,001');

    // A bad upload keeps the big ledger, with a clear error.
    const junk = path.join(path.dirname(file), 'notes.sqlite');
    writeFileSync(junk, 'this is not a database '.repeat(20));
    await page.getByTestId('my-upload').setInputFiles(junk);
    await expect(page.getByTestId('my-error')).toHaveText(/^notes\.sqlite was not loaded: this file is not a SQLite database .* Your current ledger is unchanged\.$/);
    await expect(charges).toHaveAttribute('data-total', String(CHARGES + 1));
  });
});
