import { useState } from 'react';
import { INVENTORY_BUG_TEXT, INVENTORY_BUGS, practiceOpener, PRACTICE_CHECKS, type InventoryVariant, type PracticeCheck } from '../../store/ledgerStore';
import { useLedgerContext } from './context';

/** The practice lab: reserve_inventory's ten requirements, checked live on sql.js. */
export function PracticePanel() {
  const { SQL } = useLedgerContext();
  const [variant, setVariant] = useState<InventoryVariant>('correct');
  const [results, setResults] = useState<{ check: PracticeCheck; ok: boolean; detail: string }[] | null>(null);
  const run = () => {
    const open = practiceOpener(SQL);
    setResults(PRACTICE_CHECKS.map((check) => ({ check, ...check.run(open, variant) })));
  };
  return (
    <section className="panel" aria-labelledby="ledger-practice-h">
      <h2 id="ledger-practice-h">Practice: reserve_inventory</h2>
      <p className="small">
        The lesson's practice tool reserves <code>quantity</code> of a <code>sku</code> for a <code>tenant</code>. Its idempotency key is bound to all four (with the operation
        name) by the fingerprint; the key is claimed with one <code>INSERT … ON CONFLICT(key) DO NOTHING RETURNING</code>. Run the ten checks on real SQLite:
      </p>
      <div className="practice-controls">
        <label>
          Tool under test{' '}
          <select
            value={variant}
            data-testid="practice-variant"
            onChange={(e) => {
              setVariant(e.target.value as InventoryVariant);
              setResults(null);
            }}
          >
            <option value="correct">the lesson's tool</option>
            <option value="naive">naive (every bug below)</option>
            {INVENTORY_BUGS.map((bug) => (
              <option key={bug} value={bug}>
                one bug: {INVENTORY_BUG_TEXT[bug]}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" onClick={run} data-testid="practice-run">
          Run the ten checks
        </button>
      </div>
      <ol className="practice-list">
        {PRACTICE_CHECKS.map((c, i) => {
          const r = results?.[i];
          return (
            <li key={c.id} data-testid={`practice-${c.id}`} data-status={r ? (r.ok ? 'pass' : 'fail') : 'not-run'}>
              {r && <span className={`badge ${r.ok ? 'badge-ok' : 'badge-bad'}`}>{r.ok ? 'pass' : 'fail'}</span>} {c.requirement}
              {r && <div className="small muted">{r.detail}</div>}
            </li>
          );
        })}
      </ol>
      <h3>When the inventory lives in another service</h3>
      <p className="small">
        A local transaction cannot include a remote call. Either pass <strong>the same idempotency key upstream</strong> (the inventory service deduplicates it too, so a retry
        of the whole tool replays there as well), or write the reservation request into an <strong>outbox</strong> table in the same SQLite transaction that claims the key,
        and let a relay deliver it with that key until the service acknowledges — at least once, deduplicated by key at the far end.
      </p>
    </section>
  );
}
