import type { ReactNode } from 'react';

/** Where a background run (a worker's batch of replays) stands. */
export type RunStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

/** Props of `RunControls`. */
export interface RunControlsProps {
  /** Test id prefix: `<prefix>-run`, `-cancel`, `-progress`, `-status`, `-error`, `-retry`. */
  testIdPrefix: string;
  /** The run button's label. */
  runLabel: ReactNode;
  status: RunStatus;
  /** Replays done of the total; `null` before the first run (no progress bar). */
  progress: { done: number; total: number } | null;
  /** The failure shown (with Retry) while `status` is `'error'`. */
  message: string;
  /** Starts a run (also the Retry button). */
  onRun(): void;
  /** Cancels the run in progress. */
  onCancel(): void;
  /** A total of 0 (not known yet) reads "…" instead of "0". */
  totalPendingAsEllipsis?: boolean;
  /** The panel's own controls, before the run button in the same row. */
  children?: ReactNode;
  /** False when the message is about the panel's own inputs (fixing them is the way on, not Retry): no Retry button. Default true. */
  retryable?: boolean;
}

/**
 * The page kit's run row for a background batch (all orders, chaos swarm, the ledger's explorer):
 * run and Cancel buttons, a progress bar with "done / total" (and "— cancelled" / "— failed"),
 * and, on a failure, the message with a Retry button (`role="alert"`).
 */
export function RunControls({ testIdPrefix: id, runLabel, status, progress, message, onRun, onCancel, totalPendingAsEllipsis = false, children, retryable = true }: RunControlsProps) {
  return (
    <>
      <div className="button-row">
        {children}
        <button type="button" onClick={onRun} disabled={status === 'running'} data-testid={`${id}-run`}>
          {runLabel}
        </button>
        <button type="button" onClick={onCancel} disabled={status !== 'running'} data-testid={`${id}-cancel`}>
          Cancel
        </button>
        {progress && (
          <label className="field-inline small">
            <progress max={progress.total || 1} value={progress.done} data-testid={`${id}-progress`} />
            <span data-testid={`${id}-status`} data-status={status}>
              {progress.done} / {totalPendingAsEllipsis ? progress.total || '…' : progress.total}
              {status === 'cancelled' ? ' — cancelled' : status === 'error' ? ' — failed' : ''}
            </span>
          </label>
        )}
      </div>
      {status === 'error' && (
        <p className="bad-text" role="alert" data-testid={`${id}-error`}>
          <span>{message}</span>
          {retryable && (
            <>
              {' '}
              <button type="button" className="small-btn" onClick={onRun} data-testid={`${id}-retry`}>
                Retry
              </button>
            </>
          )}
        </p>
      )}
    </>
  );
}
