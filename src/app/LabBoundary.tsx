import { Component, type ReactNode } from 'react';

/**
 * Contains a lab that fails: a lazy chunk that does not load (offline, or a 404 after a new
 * deployment) or a render error. The header and nav stay usable, the other labs stay reachable,
 * and "Try again" loads the lab anew (`onRetry` makes a fresh lazy component, since React caches
 * a rejected one).
 */
export class LabBoundary extends Component<{ name: string; onRetry(): void; children: ReactNode }, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const chunk = /dynamically imported module|Importing a module script failed|Failed to fetch|error loading/i.test(error.message);
    return (
      <div className="coming-soon" role="alert" data-testid="lab-failed">
        <h1>The {this.props.name} lab could not {chunk ? 'load' : 'run'}</h1>
        <p>
          {chunk
            ? 'Its code did not arrive (offline, or the site was updated since this page opened).'
            : 'Something went wrong while drawing it.'}{' '}
          The other labs still work from the menu above.
        </p>
        <p className="small muted">{error.message}</p>
        <p>
          <button
            type="button"
            data-testid="lab-retry"
            onClick={() => {
              this.props.onRetry();
              this.setState({ error: null });
            }}
          >
            Try again
          </button>
        </p>
      </div>
    );
  }
}
