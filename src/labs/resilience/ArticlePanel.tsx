import { useMemo, useState } from 'react';
import { formatMs } from '../../charts/format';
import { articleComparison, halfOpenBurst } from '../../store/resilienceSeeds';
import { n, NumberField } from './seedKit';

/** The resilience lab's seed panel for issue 13 item 7: the article's retry and breaker beside the corrected ones. */

/** The article's retryWithBackoff and CircuitBreaker as written beside the corrected ones, over one scripted outage. */
export function ArticlePanel() {
  const [seeded, setSeeded] = useState(false);
  const [seed, setSeed] = useState(42);
  const rows = useMemo(() => articleComparison(seeded ? seed : null), [seeded, seed]);
  const burst = useMemo(() => halfOpenBurst(), []);
  return (
    <section className="panel seed-panel" aria-labelledby="seed-article-h" data-testid="seed-article">
      <h2 id="seed-article-h">The article's retry and breaker, as written and corrected</h2>
      <p className="small muted">
        The article's <code>retryWithBackoff</code> (3 attempts, 100 ms × 2^attempt + jitter, and a sleep after the last attempt too), its <code>CircuitBreaker</code> (threshold 5, reset 10 000 ms counted from the last failure, half-open
        lazily on the next call, closes on any success, every half-open caller admitted) and its composition <code>breaker.execute(() =&gt; retryWithBackoff(…))</code>. <code>isRetryableError</code> is never defined there: here it is
        injected (408, 429, 502, 503, 504). <code>Math.random() * 100</code> is the one non-reproducible element: replaced by a seeded draw with the same distribution, uniform on [0, 100) ms. The outage: 26 calls, one every 1 200 ms; 503
        until 20 000 ms; 100 ms per attempt.
      </p>
      <div className="button-row">
        <label className="toggle">
          <input type="checkbox" checked={seeded} onChange={(e) => setSeeded(e.currentTarget.checked)} data-testid="article-jitter" /> jitter (seeded draw on [0, 100) ms)
        </label>
        {seeded && <NumberField label="Seed" value={seed} min={0} max={2 ** 31 - 1} step={1} testId="article-seed" onChange={(v) => setSeed(Math.floor(v))} />}
      </div>
      <div className="seed-compare seed-compare-4" data-testid="article-rows">
        {rows.map((r) => {
          const res = r.result;
          const failing = res.calls.find((c) => c.state === 'failed');
          return (
            <div key={r.id} className={`seed-card seed-card-${r.id.startsWith('article') ? 'incident' : 'fixed'}`} data-testid={`article-${r.id}`}>
              <h3 className="seed-card-h">{r.label}</h3>
              <dl className="stats">
                <div className="stat">
                  <dt>Attempts before the breaker opens</dt>
                  <dd data-testid={`article-${r.id}-before-open`}>{res.attemptsBeforeFirstOpen ?? 'never'}</dd>
                </div>
                <div className="stat">
                  <dt>Upstream attempts</dt>
                  <dd data-testid={`article-${r.id}-attempts`}>
                    {res.upstreamAttempts} in all, {res.upstreamAttemptsDuringOutage} during the outage
                  </dd>
                </div>
                <div className="stat">
                  <dt>Calls ok / failed / rejected</dt>
                  <dd data-testid={`article-${r.id}-calls`}>
                    {res.callsSucceeded} / {res.callsFailed} / {res.callsRejected}
                  </dd>
                </div>
                <div className="stat">
                  <dt>A failing call ends after</dt>
                  <dd>{failing ? `${formatMs(Math.round(failing.endAtMs - failing.startAtMs))} ms` : '—'}</dd>
                </div>
                <div className="stat">
                  <dt>Time to recovery</dt>
                  <dd data-testid={`article-${r.id}-recovery`}>{res.timeToRecoveryMs === null ? 'never' : `${formatMs(Math.round(res.timeToRecoveryMs))} ms`}</dd>
                </div>
              </dl>
            </div>
          );
        })}
      </div>
      <p className="small" data-testid="article-cost">
        What the article's composition costs here: the breaker sees one failure per exhausted retry loop, so it opens after {rows[0].result.attemptsBeforeFirstOpen} wire attempts instead of {rows[2].result.attemptsBeforeFirstOpen}, the
        upstream takes {rows[0].result.upstreamAttemptsDuringOutage} attempts during the outage instead of {rows[2].result.upstreamAttemptsDuringOutage}, and recovery comes{' '}
        {formatMs(Math.round((rows[0].result.timeToRecoveryMs ?? 0) - (rows[2].result.timeToRecoveryMs ?? 0)))} ms later. In a burst of 4 callers after the reset, its half-open admits {burst.article.maxHalfOpenAdmitted} (
        {burst.article.upstreamAttempts} attempts in all); the corrected breaker admits {burst.corrected.maxHalfOpenAdmitted} probe ({burst.corrected.upstreamAttempts}).
      </p>
      {seeded && (
        <p className="small muted" data-testid="article-draws">
          Jitter drawn for the article's {rows[0].result.jitterDrawsMs.length} sleeps (seed {seed}): {rows[0].result.jitterDrawsMs.slice(0, 6).map((j) => `${n(j, 1)} ms`).join(', ')}
          {rows[0].result.jitterDrawsMs.length > 6 ? ', …' : ''} — the same seed, the same draws.
        </p>
      )}
    </section>
  );
}
