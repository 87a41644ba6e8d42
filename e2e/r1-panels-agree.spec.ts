import { test, expect } from './fixtures';
import { RacesPage } from './pages/races';

// The R1 walkthrough finding: the summary said "lost", the outcome panel said "arrived late".
test('R1: the result written to the stream dropped at 510 ms is "lost with the stream" in the outcome and the wire, never "arrived"', async ({ lab }) => {
  const races = await new RacesPage(lab).open('R1-broken-stream-reissue', '?t=560');
  await expect(races.outcomePanel).toContainText('lost with the stream');
  await expect(races.outcomePanel).not.toContainText('arrived late');
  await expect(races.outcomePanel).toContainText('completed (work finished at 500 ms)');
  await expect(races.wireList).toContainText('never reached the client: lost with the dropped stream');
});
