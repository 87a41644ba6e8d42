import { expect, test } from './fixtures';
import { TrafficDriver } from './pages/traffic';

/**
 * Issue 24's page target, measured: a 100,000-line JSON-RPC JSONL file loads on the Traffic page
 * with no main-thread task over 100 ms (the page's PerformanceObserver 'longtask' entries from the
 * moment the file is chosen until the counts are shown). Prints the longest task it saw.
 */
test('a 100,000-line file loads with no main-thread task over 100 ms', async ({ lab }) => {
  // Not met yet (03:56 UTC, load 14: 3 long tasks, the longest 2.5 s — the import result, every entry,
  // crossing from the worker to the page): marked as an expected failure so it reports when it passes.
  test.fail(true, 'issue 24: the page still receives the whole transcript from its worker in one message');
  test.setTimeout(180_000);
  const traffic = await new TrafficDriver(lab).open();
  const lines: string[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 50_000; i++) {
    lines.push(`{"ts":"${new Date(t0 + i * 10).toISOString()}","jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"lookup","arguments":{"q":"${i}"}}}`);
    lines.push(`{"ts":"${new Date(t0 + i * 10 + 25).toISOString()}","jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"ok"}]}}`);
  }
  await lab.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await traffic.fileInput.setInputFiles({ name: 'big.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(lines.join('\n')) });
  await expect(traffic.source).toHaveText('The file big.jsonl', { timeout: 150_000 });
  await expect(traffic.counts).toContainText('100,000 messages');
  const tasks = await lab.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const longest = Math.max(0, ...tasks);
  console.log(`traffic page, 100,000 lines: ${tasks.length} long tasks, the longest ${Math.round(longest)} ms`);
  expect(longest).toBeLessThanOrEqual(100);
});
