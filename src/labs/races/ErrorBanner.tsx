import { selectError } from '../../store/racesStore';
import { ErrorBanner as SharedErrorBanner } from '../common/ErrorBanner';
import { useRaces, useRacesStore } from './context';

/** Bad input (file, paste, link, setting): every problem by field; the previous scenario is kept. */
export function ErrorBanner() {
  const store = useRacesStore();
  const error = useRaces(selectError);
  return <SharedErrorBanner error={error} onDismiss={() => store.getState().setError(null)} />;
}
