import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { LedgerPage } from './pages/ledger';

/** Whether the handle is what the pointer hits at the centre of its own glyph, i.e. it can be grabbed there. */
async function grabbableAtItsCentre(ledger: LedgerPage, handle: Locator): Promise<boolean> {
  const box = (await ledger.shapeOf(handle).boundingBox())!;
  const testId = await handle.getAttribute('data-testid');
  return ledger.page.evaluate(
    ({ x, y, id }) => document.elementFromPoint(x, y)?.closest('[data-handle]')?.getAttribute('data-testid') === id,
    { x: box.x + box.width / 2, y: box.y + box.height / 2, id: testId },
  );
}

test.describe('Timeline kit', () => {
  test('ledger: two steps of one connection at the same millisecond can each be grabbed and dragged', async ({ lab }) => {
    await lab.goto('./#/ledger');
    const ledger = new LedgerPage(lab);
    await ledger.picker.selectOption('A-race-two-connections');
    const begin = ledger.event('B-begin');
    const read = ledger.event('B-read');
    // B's read walks left until it stops at its own connection's earlier step: the same millisecond.
    await ledger.nudgeEvent('B-read', 'ArrowLeft', 20);
    const beginAt = await begin.getAttribute('aria-valuenow');
    await expect(read).toHaveAttribute('aria-valuenow', beginAt!);

    expect(await grabbableAtItsCentre(ledger, begin)).toBe(true);
    expect(await grabbableAtItsCentre(ledger, read)).toBe(true);

    // Drag the one drawn first (underneath, before the stack) 60 px to the left: it moves, the other stays.
    const grab = await ledger.grabEvent('B-begin', true);
    await grab.moveBy(-60, 0, 8);
    await grab.release();
    await expect(begin).not.toHaveAttribute('aria-valuenow', beginAt!);
    expect(Number(await begin.getAttribute('aria-valuenow'))).toBeLessThan(Number(beginAt));
    await expect(read).toHaveAttribute('aria-valuenow', beginAt!);
  });
});
