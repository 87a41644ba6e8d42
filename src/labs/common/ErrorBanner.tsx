import { useEffect, useRef, type ReactNode } from 'react';
import './common.css';
/** A problem report: a title and one line per problem, each naming the field ("field: problem"). */
export type LabError = { title: string; errors: string[] };

/**
 * The banner every lab shows for bad input (file, paste, link, setting). It only reports: the
 * store that raised the error has already kept the previous scenario. Renders nothing when
 * `error` is null. `testId` keeps each lab's existing end-to-end selectors.
 */
export function ErrorBanner({ error, onDismiss, testId = 'error-banner' }: { error: LabError | null; onDismiss: () => void; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // A new error raised from far down the page (a setting, an import) is brought into view once,
  // below the sticky site header (its title was hidden under it); the banner does not follow the
  // page, so it never covers the controls.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.scrollIntoView !== 'function') return;
    const headerBottom = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
    el.style.scrollMarginTop = `${Math.ceil(headerBottom) + 8}px`;
    if (el.getBoundingClientRect().top < headerBottom) el.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [error]);
  if (!error) return null;
  return (
    <div ref={ref} className="error-banner" role="alert" data-testid={testId}>
      <div className="error-head">
        <strong>{error.title}</strong>
        <button type="button" className="small-btn" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((e, i) => (
            <li key={i}>
              <code>{withLabLinks(e)}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Turns each `(#/<lab>)` in a problem line into a link to that lab, so "open it in the Ledger lab (#/ledger)" is one click. */
function withLabLinks(text: string): ReactNode[] {
  const parts = text.split(/\((#\/[a-z]+)\)/);
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <span key={i}>
        (<a href={part}>{part}</a>)
      </span>
    ) : (
      part
    ),
  );
}
