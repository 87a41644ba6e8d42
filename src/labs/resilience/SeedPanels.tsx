import { useState } from 'react';
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

/** Where the group's open/closed state is kept for the tab (a learner who opened it finds it open again). */
const OPEN_KEY = 'mcp-lab:resilience-seed-panels-open';
/** Below this width (px) the group starts closed, so the timeline and outcome come first on a phone. */
export const SEED_PANELS_NARROW_PX = 700;

/** The group's first state: as the learner left it in this tab, else open on a wide screen and closed on a narrow one. */
function initiallyOpen(): boolean {
  try {
    const kept = sessionStorage.getItem(OPEN_KEY);
    if (kept !== null) return kept === '1';
  } catch {
    /* storage refused (private mode): fall back to the width */
  }
  return window.innerWidth >= SEED_PANELS_NARROW_PX;
}

/**
 * The seed documents' panels, in one group under the lab's own: a `<details>` that starts closed
 * at narrow width (the resilience page was 12,160 px tall at 390 px) and keeps the learner's
 * open/closed choice for the tab. Its summary says what the documents are before any panel assumes them.
 */
export function SeedPanels() {
  const [open] = useState(initiallyOpen);
  return (
    <details
      className="seed-panels"
      data-testid="seed-panels"
      open={open}
      onToggle={(e) => {
        try {
          sessionStorage.setItem(OPEN_KEY, e.currentTarget.open ? '1' : '0');
        } catch {
          /* not kept: the next visit starts by width */
        }
      }}
    >
      <summary data-testid="seed-panels-summary">
        <h2 className="seed-group-h">From the source documents: the postmortem and the article</h2>
        <p className="small seed-group-intro" data-testid="seed-panels-intro">
          The lab was seeded from two documents: a postmortem of a retry storm in a layered MCP service (its error origins, dynamic timeout, protection tiers and production checklist) and an article
          whose <code>retryWithBackoff</code> and <code>CircuitBreaker</code> code is shown as written and corrected — these five panels check the loaded scenario against them.
        </p>
      </summary>
      <ChecklistPanel />
      <OriginsPanel />
      <DynamicTimeoutPanel />
      <TiersPanel />
      <ArticlePanel />
    </details>
  );
}
