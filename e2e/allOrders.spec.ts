import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';
import { RacesPage } from './pages/races';

/**
 * "All orders" in every lab (issue 10 item 5): the shared panel explores every order of the
 * selected events in a worker, lists the outcome classes with counts, and opens the shortest
 * counterexample of a class as an undoable edit.
 */
test.describe('All orders in every lab', () => {
  test('races A: the cancel vs completion of call 1 gives two classes; opening the completed one makes the call complete, and undo brings the cancel back', async ({ lab: page }) => {
    const races = await new RacesPage(page).open('A-cancel-then-complete');
    await races.exploreAllOrders();
    await expect(races.orderClasses).toHaveCount(2);
    await expect(races.orderClasses.nth(0)).toHaveAttribute('data-count', '3');
    await expect(races.orderClasses.nth(0)).toContainText('1:cancelled');
    await expect(races.orderClasses.nth(1)).toContainText('1:completed');
    await expect(races.orderSummary).toContainText('6 orders');
    // Walkthrough: the headers ran together ("ordersoutcome") outside the ledger, and a class that
    // breaks nothing offered a "counterexample".
    await expect(races.orderColumnHeaders.first()).toHaveCSS('padding-right', '6px');
    await expect(races.openButtonOf(1)).toHaveText('Open the shortest order');
    const before = await races.hash();
    await races.openCounterexample(1);
    await expect.poll(() => races.hash()).not.toBe(before);
    await races.clickHeading();
    await races.press('End');
    await expect(races.outcomeState).toHaveText('completed');
    await races.undoKey();
    await expect(races.outcomeState).toHaveText('cancelled');
    await expect.poll(() => races.hash()).toMatch(/^#\/races\/A-cancel-then-complete(\?t=\d+)?$/);
  });

  test('races: ticked events are explored, and a broken policy shows its invariant on the class', async ({ lab: page }) => {
    const races = await new LabDriver(page, 'races').open('C-progress-idle-maximum', '?policy.progressResetsMaximum=true');
    await races.exploreAllOrders(['progress-400', 'complete']);
    await expect(races.orderSummary).toContainText('progress-400, complete: 2 orders');
    await expect(races.orderClasses.filter({ hasText: 'maximum-deadline-fixed' }).first()).toBeVisible();
  });

  test('resilience T1: each actor keeps its own order (90 of 120 forbidden); a counterexample opens as an undoable edit', async ({ lab: page }) => {
    const res = await new LabDriver(page, 'resilience').open('T1-abort-before-task-id');
    await res.exploreAllOrders();
    await expect(res.orderSummary).toContainText('120 orders, 30 replayed, 90 forbidden by the lab');
    expect(await res.orderClasses.count()).toBeGreaterThan(1);
    const before = await res.hash();
    const moved = await res.firstMovedClass();
    expect(moved).toBeGreaterThanOrEqual(0);
    await res.openCounterexample(moved);
    await expect.poll(() => res.hash()).not.toBe(before);
    await res.undoKey();
    await expect.poll(() => res.hash()).toBe(before);
  });

  test('flow R2: the stall moves among the server stream\'s slots (6 orders), and a counterexample opens', async ({ lab: page }) => {
    const flow = await new LabDriver(page, 'flow').open('R2-two-tokens');
    await flow.exploreAllOrders();
    await expect(flow.orderSummary).toContainText('720 orders, 6 replayed, 714 forbidden by the lab');
    const before = await flow.hash();
    const moved = await flow.firstMovedClass();
    expect(moved).toBeGreaterThanOrEqual(0);
    await flow.openCounterexample(moved);
    await expect.poll(() => flow.hash()).not.toBe(before);
  });

  test('ledger A: the two lanes keep their own order; a counterexample opens as an undoable edit', async ({ lab: page }) => {
    const ledger = await new LabDriver(page, 'ledger').open('A-race-two-connections');
    await ledger.exploreAllOrders();
    await expect(ledger.orderSummary).toContainText('forbidden by the lab');
    expect(await ledger.orderClasses.count()).toBeGreaterThan(1);
    const before = await ledger.hash();
    const moved = await ledger.firstMovedClass();
    expect(moved).toBeGreaterThanOrEqual(0);
    await ledger.openCounterexample(moved);
    await expect.poll(() => ledger.hash()).not.toBe(before);
    await ledger.clickHeading();
    await ledger.undoKey();
    await expect.poll(() => ledger.hash()).toBe(before);
  });

});
