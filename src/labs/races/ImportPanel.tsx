import { ImportPanel as SharedImportPanel } from '../common/ImportPanel';
import { useRacesStore } from './context';

/** The races lab's import/export: the shared panel bound to the races store. */
export function ImportPanel() {
  const s = useRacesStore().getState();
  return <SharedImportPanel lab="races" importText={s.importText} setError={s.setError} exportJson={s.exportJson} />;
}
