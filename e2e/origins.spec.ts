import { expect, test } from './fixtures';
import { LedgerPage } from './pages/ledger';
import { RacesPage } from './pages/races';
import { ResiliencePage } from './pages/resilience';

test.describe('Failure origins: the races and ledger labs use the postmortem\'s words', () => {
  test('races: a caller\'s cancel is a user cancel, a maximum timeout a client timeout', async ({ lab }) => {
    const races = await new RacesPage(lab).open('A-cancel-then-complete');
    await expect(races.outcomeState).toHaveText('cancelled');
    await expect(races.outcomeOrigin).toHaveText('user cancel');
    await new RacesPage(lab).open('C-progress-idle-maximum');
    await expect(races.outcomeState).toHaveText('timeout-max');
    await expect(races.outcomeOrigin).toHaveText('client timeout');
  });

  test('ledger: the call whose response was lost failed by a client timeout', async ({ lab }) => {
    const ledger = await new LedgerPage(lab).open('F-lost-response');
    await expect(ledger.failingOrigins.first()).toHaveText('client timeout', { timeout: 15_000 });
  });
});

test.describe('Chaos seed in the address', () => {
  test('an opened failing seed keeps chaos=<seed> in the address, and a reload opens it again', async ({ lab }) => {
    const res = await new ResiliencePage(lab).open('T2-cancel-after-completion');
    await res.toggle('policy.cancelOverwritesTerminal').check();
    const chaos = res.chaos;
    await chaos.run(30);
    const result = chaos.result;
    await expect(result).toBeVisible({ timeout: 60_000 });
    const smallest = Number(await result.getAttribute('data-smallest'));
    expect(Number.isInteger(smallest)).toBe(true);
    await chaos.openSmallest();
    await expect(chaos.opened).toContainText(`seed ${smallest}`);
    await expect(lab).toHaveURL(new RegExp(`#/resilience[^#]*[?&]chaos=${smallest}(&|$)`));
    await lab.reload();
    await expect(res.chaos.opened).toContainText(`seed ${smallest}`, { timeout: 30_000 });
    await expect(res.invariant('terminal-never-changes')).toHaveAttribute('data-status', 'violated');
    await expect(lab).toHaveURL(new RegExp(`[?&]chaos=${smallest}(&|$)`));
    await expect(res.banner).toHaveCount(0);
  });
});
