import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';
import { RacesPage } from './pages/races';
import { TrafficDriver } from './pages/traffic';

/**
 * The fourth new-user walkthrough's findings (2026-12-03), each with the browser check that fails
 * without its fix. Screenshots go to SHOTS.
 */
const SHOTS = process.env.POLISHD_SHOTS_DIR ?? '/tmp/polishd-shots';
const scenarioText = (lab: string, id: string) => readFileSync(`public/scenarios/${lab}/${id}.json`, 'utf8');

test.describe('Walkthrough findings (fourth pass)', () => {
  test('chaos: a seed count out of range is named when Run is pressed, and nothing runs with another count', async ({ lab: page }) => {
    const { chaos } = await new LabDriver(page, 'races').open('A-cancel-then-complete');
    for (const typed of ['99999', '0', '2.5']) {
      await chaos.setSeeds(typed);
      await chaos.runButton.click();
      await expect(chaos.error).toContainText(`Seeds: "${typed}" is not a whole number from 1 to 2000`);
      await expect(chaos.seedsBox).toHaveAttribute('aria-invalid', 'true');
      // The way on is to fix the box: no Retry beside the message.
      await expect(chaos.retryButton).toHaveCount(0);
      await expect(chaos.result).toHaveCount(0);
      await expect(chaos.status).toHaveCount(0);
    }
    await chaos.setFirstSeed('-3');
    await expect(chaos.error).toContainText('from seed: "-3" is not a whole number from 0 to 4,294,967,295');
    await chaos.setFirstSeed('5');
    await chaos.root.screenshot({ path: `${SHOTS}/chaos-bad-seeds.png` });
    await chaos.run(12);
    await expect(chaos.status).toHaveText('12 / 12', { timeout: 60_000 });
    await expect(chaos.error).toHaveCount(0);
  });

  test('chaos and all orders: the progress of a finished run leaves with its result when another scenario is picked', async ({ lab: page }) => {
    const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
    await races.chaos.run(10);
    await expect(races.chaos.status).toHaveText('10 / 10', { timeout: 60_000 });
    await races.exploreAllOrders();
    await expect(races.allOrdersStatus).toHaveText(/^(\d+) \/ \1$/, { timeout: 60_000 });
    await races.pick('B-complete-then-cancel');
    await expect(races.chaos.status).toHaveCount(0);
    await expect(races.allOrdersStatus).toHaveCount(0);
  });

  test('traffic: the sample that needs a maximum sets it and shows its finding; a file replacing it clears the picker; a pasted scenario is named', async ({ lab: page }) => {
    const traffic = await new TrafficDriver(page).open();
    await expect(traffic.sampleOption('jsonrpc-progress-forever.jsonl')).toHaveText('jsonrpc-progress-forever.jsonl — F2-progress-forever; trips outlived-maximum (maximum 180,000 ms, set when picked)');
    await traffic.pickSample('jsonrpc-jsonl/jsonrpc-progress-forever.jsonl');
    await expect(traffic.maxBox).toHaveValue('180000');
    await expect(traffic.findings.first()).toBeVisible();
    await expect(traffic.findings.filter({ hasText: 'outlived' })).not.toHaveCount(0);
    await traffic.fileInput.setInputFiles({ name: 'mine.jsonl', mimeType: 'text/plain', buffer: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\n') });
    await expect(traffic.source).toHaveText('The file mine.jsonl', { timeout: 20_000 });
    await expect(traffic.samplePicker).toHaveValue('');
    await traffic.paste(scenarioText('races', 'A-cancel-then-complete'));
    await expect(traffic.bannerItems).toContainText(['this is a "races" scenario file, not a transcript — open it in the Races lab (#/races, Import / export…)']);
    await expect(traffic.source).toHaveText('The file mine.jsonl');
    await page.screenshot({ path: `${SHOTS}/traffic-pasted-scenario.png` });
  });

  test('races: "Neither side has ignored anything yet" says how many come later in the trace', async ({ lab: page }) => {
    const races = new RacesPage(page);
    await races.open('A-cancel-then-complete');
    await races.openIgnored();
    await expect(races.ignoredDetails).toContainText('Ignored events: 0 up to the playhead, 1 in the whole trace');
    await expect(races.ignoredDetails).toContainText('Neither side has ignored anything yet; 1 later in the trace (move the playhead on to see it).');
  });
});
