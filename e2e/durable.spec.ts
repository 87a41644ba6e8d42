import { expect, test } from './fixtures';
import { ResiliencePage } from './pages/resilience';

/** Issue 13 item 9: a durable task survives the HTTP connection closing; a drop before the handle loses the request under 2026-07-28. */
test('resilience T1: the durable-task panel, a drop after the handle and before it, under both revisions', async ({ lab: page }) => {
  const res = await new ResiliencePage(page).open('T1-abort-before-task-id');
  const panel = res.durable;
  const rows = panel.rows;
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('tasks/get');
  await expect(rows.nth(0)).toContainText('6 000 ms');
  await panel.dropBeforeHandle();
  await expect(rows.nth(0)).toContainText('re-issue (the request was lost)');
  await expect(rows.nth(0)).toContainText('2 (1 orphaned)');
  // What each side holds: the client no task (it never got a handle to poll), the server an orphaned one.
  await expect(panel.clientKnows(0)).toHaveText('no task: the request was lost — re-issued as a new request (new id)');
  await expect(panel.serverHas(0)).toHaveText('an orphaned task (1, working on with nobody polling), then the re-issue’s task');
  await expect(rows.nth(1)).toContainText('tasks/list');
  await panel.setDropAt('-5');
  await expect(panel.alert).toContainText('dropAtMs: must be a whole number of milliseconds ≥ 0, got -5');
  await expect(rows.nth(0)).toContainText('re-issue');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await res.sidewaysOverflow(), 'no sideways scroll at 390 px').toBeLessThanOrEqual(0);
});

/** Issue 13 item 5: the half-finished result of the postmortem, and its two fixes. */
test('resilience S2: the half-finished result — three executions as it happened, one with both fixes; readable at 390 px', async ({ lab: page }) => {
  const res = await new ResiliencePage(page).open('S2-timeouts-cancel');
  const panel = res.halfFinished;
  await expect(panel.executions).toHaveCount(3);
  await expect(panel.verdict).toContainText('half-finished');
  await expect(panel.executions.first()).toContainText('73 % transferred');
  await panel.usePriorityCancel();
  await panel.useFingerprint();
  await expect(panel.executions).toHaveCount(1);
  await expect(panel.verdict).toContainText('nothing broken');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await res.sidewaysOverflow(), 'no sideways scroll at 390 px').toBeLessThanOrEqual(0);
});
