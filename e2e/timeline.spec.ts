import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Whether the handle is what the pointer hits at the centre of its own glyph, i.e. it can be grabbed there. */
async function grabbableAtItsCentre(page: Page, handle: Locator): Promise<boolean> {
  const shape = handle.locator('.tl-handle-shape');
  const box = (await shape.boundingBox())!;
  const testId = await handle.getAttribute('data-testid');
  return page.evaluate(
    ({ x, y, id }) => document.elementFromPoint(x, y)?.closest('[data-handle]')?.getAttribute('data-testid') === id,
    { x: box.x + box.width / 2, y: box.y + box.height / 2, id: testId },
  );
}

test.describe('Timeline kit', () => {
  test('ledger: two steps of one connection at the same millisecond can each be grabbed and dragged', async ({ lab }) => {
    await lab.goto('./#/ledger');
    await lab.getByTestId('scenario-picker').selectOption('A-race-two-connections');
    const begin = lab.getByTestId('handle-B-begin');
    const read = lab.getByTestId('handle-B-read');
    // B's read walks left until it stops at its own connection's earlier step: the same millisecond.
    await read.focus();
    for (let i = 0; i < 20; i++) await lab.keyboard.press('ArrowLeft');
    const beginAt = await begin.getAttribute('aria-valuenow');
    await expect(read).toHaveAttribute('aria-valuenow', beginAt!);

    expect(await grabbableAtItsCentre(lab, begin)).toBe(true);
    expect(await grabbableAtItsCentre(lab, read)).toBe(true);

    // Drag the one drawn first (underneath, before the stack) 60 px to the left: it moves, the other stays.
    const box = (await begin.locator('.tl-handle-shape').boundingBox())!;
    const y = box.y + box.height / 2;
    await lab.mouse.move(box.x + box.width / 2, y);
    await lab.mouse.down();
    await lab.mouse.move(box.x + box.width / 2 - 60, y, { steps: 8 });
    await lab.mouse.up();
    await expect(begin).not.toHaveAttribute('aria-valuenow', beginAt!);
    expect(Number(await begin.getAttribute('aria-valuenow'))).toBeLessThan(Number(beginAt));
    await expect(read).toHaveAttribute('aria-valuenow', beginAt!);
  });
});
