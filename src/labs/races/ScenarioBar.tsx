import { useId, useState } from 'react';
import { encodeRacesHash } from '../../store/url';
import { pickerLabel, selectBuiltins, selectCanRedo, selectCanUndo, selectCursor, selectIsModified, selectScenario } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';

/** Scenario picker and the edit actions: Reset, Undo, Redo, Copy share link. */
export function ScenarioBar() {
  const store = useRacesStore();
  const scenario = useRaces(selectScenario);
  const builtins = useRaces(selectBuiltins);
  const canUndo = useRaces(selectCanUndo);
  const canRedo = useRaces(selectCanRedo);
  const modified = useRaces(selectIsModified);
  const cursorMs = useRaces(selectCursor);
  const [status, setStatus] = useState<{ text: string; link?: string } | null>(null);
  const pickerId = useId();
  const isBuiltin = builtins.some((b) => b.id === scenario.id);

  const copyLink = async () => {
    const s = store.getState();
    const hash = encodeRacesHash(s.scenario, s.builtins, Math.floor(cursorMs));
    const link = `${location.origin}${location.pathname}${location.search}${hash}`;
    try {
      await navigator.clipboard.writeText(link);
      setStatus({ text: 'Link copied: it reproduces this scenario and playhead exactly.' });
    } catch {
      setStatus({ text: 'Copy this link (the clipboard is not available here):', link });
    }
  };

  return (
    <div className="scenario-bar">
      <div className="field-inline picker">
        <label htmlFor={pickerId}>Scenario</label>
        <select id={pickerId} data-testid="scenario-picker" value={isBuiltin ? scenario.id : ''} onChange={(e) => store.getState().loadBuiltin(e.currentTarget.value)}>
          {!isBuiltin && (
            <option value="" disabled>
              {scenario.title} (imported)
            </option>
          )}
          {builtins.map((b) => (
            <option key={b.id} value={b.id}>
              {pickerLabel(b)}
            </option>
          ))}
        </select>
        {modified && <span className="badge badge-info">edited</span>}
      </div>
      <div className="button-row" role="group" aria-label="Edit history and sharing">
        <button type="button" onClick={() => store.getState().undo()} disabled={!canUndo} title="Undo (Ctrl+Z)">
          Undo
        </button>
        <button type="button" onClick={() => store.getState().redo()} disabled={!canRedo} title="Redo (Ctrl+Shift+Z)">
          Redo
        </button>
        <button type="button" onClick={() => store.getState().reset()} title="Bring back the lesson's original scenario">
          Reset
        </button>
        <button type="button" onClick={() => void copyLink()}>
          Copy share link
        </button>
      </div>
      <div className="share-status" role="status">
        {status && (
          <>
            <span className="small">{status.text}</span>
            {status.link && <input className="share-link" readOnly value={status.link} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />}
          </>
        )}
      </div>
    </div>
  );
}
