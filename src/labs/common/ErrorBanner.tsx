import './common.css';
/** A problem report: a title and one line per problem, each naming the field ("field: problem"). */
export type LabError = { title: string; errors: string[] };

/**
 * The banner every lab shows for bad input (file, paste, link, setting). It only reports: the
 * store that raised the error has already kept the previous scenario. Renders nothing when
 * `error` is null. `testId` keeps each lab's existing end-to-end selectors.
 */
export function ErrorBanner({ error, onDismiss, testId = 'error' }: { error: LabError | null; onDismiss: () => void; testId?: string }) {
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid={testId}>
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
              <code>{e}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
