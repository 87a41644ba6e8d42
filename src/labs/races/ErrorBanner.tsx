import { selectError } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';

/** Bad input (file, paste, link, setting): every problem by field; the previous scenario is kept. */
export function ErrorBanner() {
  const store = useRacesStore();
  const error = useRaces(selectError);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert" data-testid="error">
      <div className="error-head">
        <strong>{error.title}</strong>
        <button type="button" className="small-btn" onClick={() => store.getState().setError(null)}>
          Dismiss
        </button>
      </div>
      <ul>
        {error.errors.map((e, i) => (
          <li key={i}>
            <code>{e}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
