import { expect, test } from './fixtures';
import { TrafficDriver } from './pages/traffic';

/**
 * Issue 24's page target, measured: a 100,000-line JSON-RPC JSONL file loads on the Traffic page
 * with no main-thread task over 100 ms (the page's PerformanceObserver 'longtask' entries from the
 * moment the file is chosen until the counts are shown). Prints the longest task it saw.
 */
test('a 100,000-line file loads with no main-thread task over 100 ms', async ({ lab }) => {
  // Not met yet (2026-12-06 22:45 UTC, load 3, the file built in the page: 11 long tasks, the longest
  // 1109 ms — the page's work once the last part arrives: joining the parts, the derived views and
  // their first render; garbage collection is a third of the main thread's time): marked as an
  // expected failure so it reports when it passes.
  test.fail(true, 'issue 24: the page still builds every derived view of the whole transcript in one task when the import ends');
  test.setTimeout(180_000);
  const traffic = await new TrafficDriver(lab).open();
  const lines: string[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 50_000; i++) {
    lines.push(`{"ts":"${new Date(t0 + i * 10).toISOString()}","jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"lookup","arguments":{"q":"${i}"}}}`);
    lines.push(`{"ts":"${new Date(t0 + i * 10 + 25).toISOString()}","jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"ok"}]}}`);
  }
  // The file is built in the page first: Playwright's own transfer of 15 MB (setInputFiles decodes it
  // on the main thread, a 2.6 s task of the harness, not of the lab) stays outside the measurement.
  await traffic.stageFile('big.jsonl', lines);
  await lab.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await traffic.chooseStagedFile();
  await expect(traffic.source).toHaveText('The file big.jsonl', { timeout: 150_000 });
  await expect(traffic.counts).toContainText('100,000 messages');
  const tasks = await lab.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const longest = Math.max(0, ...tasks);
  console.log(`traffic page, 100,000 lines: ${tasks.length} long tasks, the longest ${Math.round(longest)} ms`);
  expect(longest).toBeLessThanOrEqual(100);
});
