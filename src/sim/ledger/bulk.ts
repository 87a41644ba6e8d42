import type { Json } from '../types';
import { fingerprint, receiptName } from './ledger';
import type { SqlDatabase } from './sql';

/**
 * Fills an empty ledger (made by `createLedger`) with `charges` completed, keyed charges in one
 * transaction, as if `charge()` had run that many times with keys `bulk-1` … `bulk-N` on account
 * `acct-1` and `cents = 100 + (i mod 7)`: one `charges` row, one completed `idempotency` record
 * (fingerprint and stored result exactly as `charge()` writes them), one `execute` line in
 * `op_log` per charge, and the execution counter at N. Built by SQL (a recursive CTE), so a
 * 100,000-charge file takes well under a second: the benchmark's and the browser test's big file.
 * Throws `RangeError` when `charges` is not an integer from 0 to 1,000,000, SQLite's error when
 * the ledger is not empty (receipts would collide).
 */
export function fillLedger(db: SqlDatabase, charges: number): void {
  if (!Number.isInteger(charges) || charges < 0 || charges > 1_000_000) throw new RangeError(`charges: ${charges} is not an integer from 0 to 1,000,000 — pass a whole number of charges`);
  const prints = Array.from({ length: 7 }, (_, c) => fingerprint({ account: 'acct-1', cents: 100 + c } as unknown as Json));
  const receipt = receiptName(1).replace(/\d+$/, ''); // "charge-"
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec('CREATE TEMP TABLE bulk_fp (c INTEGER PRIMARY KEY, fp TEXT NOT NULL)');
    for (const [c, fp] of prints.entries()) db.run('INSERT INTO bulk_fp (c, fp) VALUES (?, ?)', [c, fp]);
    db.run(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO charges (receipt, account, cents, request_id, key)
       SELECT '${receipt}' || printf('%03d', i), 'acct-1', 100 + i % 7, CAST(i AS TEXT), 'bulk-' || i FROM n`,
      [charges],
    );
    db.exec(`INSERT INTO idempotency (key, fingerprint, status, result, request_id)
       SELECT c.key, f.fp, 'completed',
              json_object('receipt', c.receipt, 'account', c.account, 'cents', c.cents, 'requestId', CAST(c.request_id AS INTEGER)), c.request_id
       FROM charges c JOIN bulk_fp f ON f.c = c.cents - 100`);
    db.exec(`INSERT INTO op_log (at_ms, actor, op, detail)
       SELECT 0, 'server', 'execute', receipt || ': ' || cents || ' cents from ' || account || ' (request ' || request_id || ', key ' || key || ')'
       FROM charges ORDER BY CAST(request_id AS INTEGER)`);
    db.run('UPDATE executions SET count = count + ? WHERE id = 1', [charges]);
    db.exec('DROP TABLE bulk_fp');
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}
