import { ArticlePanel } from './ArticlePanel';
import { ChecklistPanel } from './ChecklistPanel';
import { DynamicTimeoutPanel } from './DynamicTimeoutPanel';
import { OriginsPanel } from './OriginsPanel';
import { TiersPanel } from './TiersPanel';
import './seeds.css';

/**
 * The resilience lab's panels for the seed documents (issue 13 items 1–4 and 7): the production
 * checklist over the loaded scenario; the postmortem's error origins, decision tree, cost gate and
 * 38 % load test; dynamic timeout v2 against load; the three protection tiers over virtual time;
 * the article's retry and breaker beside the corrected ones. Everything is computed through the
 * store's named selectors (src/store/resilienceSeeds.ts).
 */

export { ArticlePanel, ChecklistPanel, DynamicTimeoutPanel, OriginsPanel, TiersPanel };

/** The seed documents' panels, in one group under the lab's own. */
export function SeedPanels() {
  return (
    <div className="seed-panels" data-testid="seed-panels">
      <h2 className="seed-group-h">From the seed documents: the postmortem and the article</h2>
      <ChecklistPanel />
      <OriginsPanel />
      <DynamicTimeoutPanel />
      <TiersPanel />
      <ArticlePanel />
    </div>
  );
}
