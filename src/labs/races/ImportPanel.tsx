import { ImportPanel as SharedImportPanel } from '../common/ImportPanel';
import { loadRacesParser } from '../../store/racesStore';
import { useRacesStore } from './context';

/**
 * The races lab's import/export: the shared panel bound to the races store. The scenario parser
 * (a lazy chunk) starts loading when the learner reaches for the panel (focus, press, a file
 * dragged over it), so a paste or file is usually read at once; the store waits for it otherwise.
 */
export function ImportPanel() {
  const s = useRacesStore().getState();
  const load = () => void loadRacesParser();
  return (
    <div style={{ display: 'contents' }} onFocusCapture={load} onPointerDownCapture={load} onDragEnterCapture={load}>
      <SharedImportPanel lab="races" importText={s.importText} setError={s.setError} exportJson={s.exportJson} />
    </div>
  );
}
