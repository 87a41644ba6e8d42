import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';

/** Issue 13 item 9: a durable task survives the HTTP connection closing; a drop before the handle loses the request under 2026-07-28. */
test('resilience T1: the durable-task panel, a drop after the handle and before it, under both revisions', async ({ lab: page }) => {
  await new LabDriver(page, 'resilience').open('T1-abort-before-task-id');
  const panel = page.getByTestId('durable-task');
  const rows = panel.getByTestId('durable-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('tasks/get');
  await expect(rows.nth(0)).toContainText('6 000 ms');
  await panel.getByRole('button', { name: /before the handle/ }).click();
  await expect(rows.nth(0)).toContainText('re-issue (the request was lost)');
  await expect(rows.nth(0)).toContainText('2 (1 orphaned)');
  // What each side holds: the client no task (it never got a handle to poll), the server an orphaned one.
  await expect(rows.nth(0).getByTestId('durable-client-knows')).toHaveText('no task: the request was lost — re-issued as a new request (new id)');
  await expect(rows.nth(0).getByTestId('durable-server-has')).toHaveText('an orphaned task (1, working on with nobody polling), then the re-issue’s task');
  await expect(rows.nth(1)).toContainText('tasks/list');
  await panel.getByTestId('durable-drop').fill('-5');
  await expect(panel.getByRole('alert')).toContainText('dropAtMs: must be a whole number of milliseconds ≥ 0, got -5');
  await expect(rows.nth(0)).toContainText('re-issue');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'no sideways scroll at 390 px').toBeLessThanOrEqual(0);
});

/** Issue 13 item 5: the half-finished result of the postmortem, and its two fixes. */
test('resilience S2: the half-finished result — three executions as it happened, one with both fixes; readable at 390 px', async ({ lab: page }) => {
  await new LabDriver(page, 'resilience').open('S2-timeouts-cancel');
  const panel = page.getByTestId('half-finished');
  await expect(panel.getByTestId('half-execution')).toHaveCount(3);
  await expect(panel.getByTestId('half-verdict')).toContainText('half-finished');
  await expect(panel.getByTestId('half-execution').first()).toContainText('73 % transferred');
  await panel.getByTestId('half-priority').check();
  await panel.getByTestId('half-fingerprint').check();
  await expect(panel.getByTestId('half-execution')).toHaveCount(1);
  await expect(panel.getByTestId('half-verdict')).toContainText('nothing broken');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 'no sideways scroll at 390 px').toBeLessThanOrEqual(0);
});
