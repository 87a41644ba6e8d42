import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';

test.describe('Failure origins: the races and ledger labs use the postmortem\'s words', () => {
  test('races: a caller\'s cancel is a user cancel, a maximum timeout a client timeout', async ({ lab }) => {
    await new LabDriver(lab, 'races').open('A-cancel-then-complete');
    await expect(lab.getByTestId('outcome-state')).toHaveText('cancelled');
    await expect(lab.getByTestId('outcome-origin')).toHaveText('user cancel');
    await new LabDriver(lab, 'races').open('C-progress-idle-maximum');
    await expect(lab.getByTestId('outcome-state')).toHaveText('timeout-max');
    await expect(lab.getByTestId('outcome-origin')).toHaveText('client timeout');
  });

  test('ledger: the call whose response was lost failed by a client timeout', async ({ lab }) => {
    await new LabDriver(lab, 'ledger').open('F-lost-response');
    await expect(lab.getByTestId('failing-origins').getByTestId('failing-origin').first()).toHaveText('client timeout', { timeout: 15_000 });
  });
});

test.describe('Chaos seed in the address', () => {
  test('an opened failing seed keeps chaos=<seed> in the address, and a reload opens it again', async ({ lab }) => {
    await new LabDriver(lab, 'resilience').open('T2-cancel-after-completion');
    await lab.getByTestId('toggle-policy.cancelOverwritesTerminal').check();
    const chaos = lab.getByTestId('chaos');
    await chaos.getByTestId('chaos-seeds').fill('30');
    await chaos.getByTestId('chaos-run').focus();
    await lab.keyboard.press('Enter');
    const result = chaos.getByTestId('chaos-result');
    await expect(result).toBeVisible({ timeout: 60_000 });
    const smallest = Number(await result.getAttribute('data-smallest'));
    expect(Number.isInteger(smallest)).toBe(true);
    await chaos.getByTestId('chaos-open-smallest').click();
    await expect(chaos.getByTestId('chaos-opened')).toContainText(`seed ${smallest}`);
    await expect(lab).toHaveURL(new RegExp(`#/resilience[^#]*[?&]chaos=${smallest}(&|$)`));
    await lab.reload();
    await expect(lab.getByTestId('chaos-opened')).toContainText(`seed ${smallest}`, { timeout: 30_000 });
    await expect(lab.getByTestId('invariant-terminal-never-changes')).toHaveAttribute('data-status', 'violated');
    await expect(lab).toHaveURL(new RegExp(`[?&]chaos=${smallest}(&|$)`));
    await expect(lab.getByTestId('error-banner')).toHaveCount(0);
  });
});
