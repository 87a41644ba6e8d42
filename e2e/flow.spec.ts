import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function openFlow(page: Page, id: string) {
  await page.goto('./#/flow');
  // The lab is a lazy chunk; on a busy machine the first render can take a few seconds.
  await expect(page.getByTestId('flow-scenario')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('flow-scenario').selectOption(id);
  await expect(page.getByTestId('flow-scenario')).toHaveValue(id);
}

test.describe('Flow lab: the buffer under pressure', () => {
  test('R1: capacity 3, twenty progress then a final → 19 dropped; unbounded goes over capacity', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('19');
    await expect(lab.getByTestId('counter-coalesced')).toHaveText('19');
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 1000 ms');
    await expect(lab.getByTestId('invariant-buffer-within-capacity')).toHaveAttribute('data-status', 'holds');
    await lab.getByTestId('flow-policy').selectOption('unbounded');
    await expect(lab.getByTestId('counter-peak')).toHaveText('21');
    await expect(lab.getByTestId('invariant-buffer-within-capacity')).toHaveAttribute('data-status', 'violated');
    await lab.getByTestId('flow-policy').selectOption('drop-silent');
    await expect(lab.getByTestId('counter-silent')).toHaveText('18');
    await expect(lab.getByTestId('invariant-no-silent-gap')).toHaveAttribute('data-status', 'violated');
    // Undo twice returns to the lesson policy and its numbers.
    await lab.getByTestId('flow-undo').click();
    await lab.getByTestId('flow-undo').click();
    await expect(lab.getByTestId('flow-policy')).toHaveValue('lesson');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('19');
  });

  test('F1: a stalled subscriber overloads a 1024-event queue: 5900 unbounded, 1024 with drop-oldest, a disconnect at 11240 ms', async ({ lab }) => {
    await openFlow(lab, 'F1-stalled-subscriber');
    await expect(lab.getByTestId('counter-peak')).toHaveText('5900');
    await lab.getByTestId('flow-policy').selectOption('drop-oldest');
    await expect(lab.getByTestId('counter-peak')).toHaveText('1024');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('4876');
    await expect(lab.getByTestId('counter-silent')).toHaveText('0');
    await lab.getByTestId('flow-policy').selectOption('disconnect');
    await expect(lab.getByTestId('counter-resyncs')).toHaveText('1 / 1');
    // Scrub to just before and at the disconnect.
    await lab.getByTestId('flow-cursor').fill('11239');
    await expect(lab.getByTestId('counter-depth')).toHaveText('1024');
    await lab.getByTestId('flow-cursor').fill('11240');
    await expect(lab.getByTestId('counter-depth')).toHaveText('0');
  });

  test('a capacity below 2 is refused with the field named, and the previous scenario is kept', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await lab.getByTestId('flow-capacity').fill('1');
    await expect(lab.getByTestId('flow-error')).toContainText('config.capacityEvents');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('19');
  });
});

test.describe('Flow lab: proxy and keep-alives', () => {
  test('P1: a buffering proxy starves the idle timeout; turning buffering off lets the call complete', async ({ lab }) => {
    await openFlow(lab, 'P1-proxy-buffering');
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 5000 ms');
    await lab.getByTestId('proxy-buffering').uncheck();
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 22000 ms');
    await lab.getByTestId('proxy-buffering').check();
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 5000 ms');
  });

  test('P2: keep-alives reach the client but never reset the idle timeout (the bug switch breaks the invariant)', async ({ lab }) => {
    await openFlow(lab, 'P2-keepalive-not-progress');
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 30000 ms');
    await expect(lab.getByTestId('counter-proxy-timeouts')).toHaveText('0');
    await lab.getByTestId('bug-keepalive').check();
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 90000 ms');
    await expect(lab.getByTestId('invariant-keepalive-not-progress')).toHaveAttribute('data-status', 'violated');
  });
});

test.describe('Flow lab: fleets', () => {
  test('F2: evict-oldest never settles; rejecting with Retry-After keeps the same 50', async ({ lab }) => {
    await openFlow(lab, 'F2-stream-cap');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('21 evictions');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('it never settles');
    await lab.getByTestId('fleet-atcap').selectOption('reject');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('0 evictions and 13 rejections');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('it settled');
    await expect(lab.getByTestId('counter-open')).toHaveText('50');
  });

  test('F3: jitter spreads 50 reconnects from one millisecond to 4042–5901 ms', async ({ lab }) => {
    await openFlow(lab, 'F3-restart-herd');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('between 5000 and 5000 ms (spread 0 ms), at most 50');
    await lab.getByTestId('fleet-jitter').fill('1000');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('between 4042 and 5901 ms (spread 1859 ms), at most 5');
  });
});

test.describe('Flow lab: herd plot', () => {
  test('changing the client count and the strategies updates the table', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(lab.getByTestId('herd-table')).toBeVisible({ timeout: 20_000 });
    await expect(lab.getByTestId('herd-row-exponential').getByTestId('herd-peak')).toHaveText('10,000');
    await lab.getByTestId('herd-clients').fill('3');
    await expect(lab.getByTestId('herd-clients-value')).toHaveText('1,000');
    await expect(lab.getByTestId('herd-row-exponential').getByTestId('herd-peak')).toHaveText('1,000');
    await expect(lab.getByTestId('herd-row-equal-jitter')).toHaveCount(0);
    await lab.getByTestId('herd-strategy-equal-jitter').check();
    await expect(lab.getByTestId('herd-row-equal-jitter')).toHaveCount(1);
    await lab.getByTestId('herd-strategy-exponential').uncheck();
    await expect(lab.getByTestId('herd-row-exponential')).toHaveCount(0);
    await lab.getByTestId('herd-clients').fill('5');
    await expect(lab.getByTestId('herd-clients-value')).toHaveText('100,000');
    await expect(lab.getByTestId('herd-row-full-jitter').getByTestId('herd-attempts')).not.toHaveText('');
  });

  test('the reconnect plan shows both revisions for the same drop', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(lab.getByTestId('plan-2026')).toBeVisible({ timeout: 20_000 });
    await expect(lab.getByTestId('plan-2026')).toContainText('subscriptions/listen');
    await expect(lab.getByTestId('plan-2026')).toContainText('not replayed automatically');
    await expect(lab.getByTestId('plan-2025')).toContainText('Last-Event-ID: 40');
    await expect(lab.getByTestId('plan-2025')).toContainText('replays those 12 events');
    await lab.getByTestId('plan-evicted').check();
    await expect(lab.getByTestId('plan-2025')).toContainText('evicted 41–44');
  });
});

for (const theme of ['light', 'dark'] as const) {
  test(`no serious accessibility violations, ${theme} theme (axe) — with screenshots`, async ({ lab }, info) => {
    await lab.emulateMedia({ colorScheme: theme });
    await openFlow(lab, 'P1-proxy-buffering');
    await expect(lab.getByTestId('herd-table')).toBeVisible();
    await lab.screenshot({ path: info.outputPath(`flow-${theme}.png`), fullPage: true });
    const results = await new AxeBuilder({ page: lab }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

test.describe('Flow lab: links and files', () => {
  test('an edited scenario survives a reload through the address; a broken link is refused with the field named', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await expect(lab).toHaveURL(/#\/flow\/R1-coalesce-one-token$/);
    await lab.getByTestId('flow-policy').selectOption('unbounded');
    await expect(lab).toHaveURL(/#\/flow\/R1-coalesce-one-token\?s=/);
    await lab.reload();
    await expect(lab.getByTestId('flow-policy')).toHaveValue('unbounded', { timeout: 20_000 });
    await expect(lab.getByTestId('counter-peak')).toHaveText('21');
    await lab.goto('./#/flow/R1-coalesce-one-token?s=eyJmb3JtYXQiOjF9');
    await expect(lab.getByTestId('flow-error')).toContainText('lab', { timeout: 20_000 });
  });

  test('importing a bad file keeps the scenario and names the problem; a good file loads', async ({ lab }) => {
    await openFlow(lab, 'R2-two-tokens');
    await lab.getByTestId('flow-import').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":1,"lab":"flow","id":"x","title":"x","config":{"capacityEvents":1},"events":[]}') });
    await expect(lab.getByTestId('flow-error')).toContainText('config.capacityEvents');
    await expect(lab.getByTestId('flow-scenario')).toHaveValue('R2-two-tokens');
    const good = { format: 1, lab: 'flow', id: 'mine', title: 'My stream', seed: 1, config: { capacityEvents: 2 }, events: [{ id: 's', at: 0, actor: 'client', kind: 'stall', durationMs: 100 }, { id: 'a', at: 1, actor: 'server', kind: 'progress', token: 'A' }, { id: 'b', at: 2, actor: 'server', kind: 'progress', token: 'B' }, { id: 'c', at: 3, actor: 'server', kind: 'progress', token: 'C' }] };
    await lab.getByTestId('flow-import').setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)) });
    await expect(lab.getByTestId('flow-scenario')).toHaveValue('mine');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('1');
  });
});
