import { expect, test } from './fixtures';
import { LedgerPage } from './pages/ledger';

test.describe('Ledger lab: two replicas and a restart (issue 13 item 8)', () => {
  test('process-local executes checkout-7 twice, the shared SQLite ledger once, for the other replica and for a restart', async ({ lab: page }) => {
    const { replicas } = await new LedgerPage(page).open('A-race-two-connections');
    const local = replicas.processLocal;
    const shared = replicas.shared;
    await expect(local).toHaveAttribute('data-executions', '2');
    await expect(local).toHaveAttribute('data-violation', 'key checkout-7 executed 2 times');
    await expect(replicas.lines(local)).toHaveText(['tools/call charge_account key checkout-7 → replica A: executed charge-001', 'tools/call charge_account key checkout-7 → replica B: executed charge-001']);
    await expect(shared).toHaveAttribute('data-executions', '1');
    await expect(shared).toHaveAttribute('data-violation', '');
    await expect(replicas.lines(shared)).toHaveText(['tools/call charge_account key checkout-7 → replica A: executed charge-001', 'tools/call charge_account key checkout-7 → replica B: replayed charge-001']);
    await expect(shared).toContainText('at-most-one-execution-per-key: holds');
    await expect(local).toContainText('at-most-one-execution-per-key: broken — key checkout-7 executed 2 times');

    await replicas.setRun('restart');
    await expect(replicas.lines(local)).toHaveText(['tools/call charge_account key checkout-7 → replica A: executed charge-001', 'replica A restarts', 'tools/call charge_account key checkout-7 → replica A: executed charge-001']);
    await expect(local).toHaveAttribute('data-executions', '2');
    await expect(shared).toHaveAttribute('data-executions', '1');
    await expect(replicas.lines(shared).nth(2)).toHaveText('tools/call charge_account key checkout-7 → replica A: replayed charge-001');
  });
});
