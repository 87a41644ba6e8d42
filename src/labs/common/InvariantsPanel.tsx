import './kit.css';
import { useDeferredValue } from 'react';
import { formatMs } from '../../charts/format';
import { selectCursor, selectTrace } from '../../store/labSelectors';
import type { LabData } from '../../store/labStore';
import { useLab, useLabStore } from './LabContext';

/** One invariant of a trace as the kit shows it (the shape every lab's trace carries). */
export interface KitInvariant {
  name: string;
  description: string;
  firstViolation: { at: number; message: string } | null;
}

/** Options every invariants view takes: which invariants to list and how to word each description. */
export interface InvariantsOptions {
  /** Which of the trace's invariants to list (default: all). */
  filter?: (inv: KitInvariant) => boolean;
  /** The text under an invariant's name (default: its description). */
  describe?: (inv: KitInvariant) => string;
}

interface StoreSlice extends LabData<{ invariants: readonly KitInvariant[] }, unknown> {
  seek(atMs: number): void;
}

/** The listed invariants of the page's trace (deferred: during a drag the timeline updates first). */
function useInvariants(filter?: InvariantsOptions['filter']): readonly KitInvariant[] {
  const trace = useDeferredValue(useLab((st: StoreSlice) => selectTrace(st)));
  return filter ? trace.invariants.filter(filter) : trace.invariants;
}

/**
 * The page kit's invariant list: every invariant over the whole trace, holds or its first
 * violation (a button seeks there and scrolls the timeline into view; "after the playhead" when
 * the playhead has not reached it). Each row is `data-testid="invariant-<name>"` with
 * `data-status` `holds` / `violated`.
 */
export function InvariantList({ filter, describe = (inv) => inv.description }: InvariantsOptions) {
  const store = useLabStore<StoreSlice>();
  const list = useInvariants(filter);
  const cursorMs = useLab(selectCursor);
  return (
    <ul className="inv-list">
      {list.map((inv) => {
        const v = inv.firstViolation;
        return (
          <li key={inv.name} data-testid={`invariant-${inv.name}`} data-status={v ? 'violated' : 'holds'} className={v ? 'is-violated' : 'is-holding'}>
            <div className="inv-head">
              <span className={v ? 'badge badge-bad' : 'badge badge-ok'}>{v ? '✗ violated' : '✓ holds'}</span> <code>{inv.name}</code>
            </div>
            <p className="small">{describe(inv)}</p>
            {v && (
              <p className="small inv-violation">
                <button
                  type="button"
                  className="link-btn"
                  onClick={() => {
                    store.getState().seek(v.at);
                    document.getElementById('timeline-panel')?.scrollIntoView({ block: 'start' });
                  }}
                  aria-label={`Go to the first violation of ${inv.name} at ${v.at} ms`}
                >
                  at {formatMs(v.at)} ms
                </button>
                {v.at <= cursorMs ? '' : ' (after the playhead)'}: {v.message}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The kit's invariants panel (`data-testid="invariants-panel"`): a heading with the count violated, then `InvariantList`. */
export function InvariantsPanel(props: InvariantsOptions) {
  const list = useInvariants(props.filter);
  const violated = list.filter((i) => i.firstViolation !== null).length;
  return (
    <section className="panel kit-invariants" aria-labelledby="inv-h" data-testid="invariants-panel">
      <h2 id="inv-h">
        Invariants <span className="muted small">— {violated === 0 ? 'all hold' : `${violated} violated`}</span>
      </h2>
      <InvariantList {...props} />
    </section>
  );
}
