import './kit.css';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { importedOptionValues, pickerCurrent, pickerLabel, selectBuiltins, selectImported, selectImportedScenarios, selectCanRedo, selectCanUndo, selectIsModified, selectRedoStep, selectUndoStep, selectScenario } from '../../store/labSelectors';
import type { LabData } from '../../store/labStore';
import type { Scenario } from '../../sim/types';
import { IMPORT_PANEL_ID } from './importFile';
import { useLab, useLabStore } from './LabContext';
import { neutraliseBidi } from '../../charts/format';

interface StoreSlice extends LabData<unknown, unknown> {
  loadBuiltin(id: string): void;
  loadImported(index: number): void;
  undo(): void;
  redo(): void;
  reset(): void;
  address(): string;
}

/** How the picker groups the built-ins (`<optgroup>`s): the group key of a scenario, and each key's shown name. */
export interface PickerGroups {
  of: (scenario: Scenario) => string;
  names: Readonly<Record<string, string>>;
}

const neutralised = (text: string | null): string | null => (text === null ? null : neutraliseBidi(text));

/** Scrolls to the page's Import / export panel (`#lab-import`, the kit's ImportPanel) and focuses its text box. */
function jumpToImport() {
  const panel = document.getElementById(IMPORT_PANEL_ID);
  panel?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  panel?.querySelector('textarea')?.focus({ preventScroll: true });
}

/**
 * The page kit's scenario bar, the same in every lab: the built-in picker (`scenario-picker`; an
 * imported scenario — a retitled copy of a built-in too — shows under its own title as
 * "(imported)", `pickerCurrent`, and every scenario imported on the page stays listed under
 * "Imported", so picking a built-in loses none), an "edited" badge while the scenario differs from the
 * lesson's (`edited`), the lab's own controls (`children`), then Undo and Redo (each titled with
 * the step it would take back or again: picking another scenario is one such step), Reset (back to the
 * lesson's version; the step Undo — else Redo — would take is also shown as text beside them), Copy share link (the address that reproduces scenario and playhead; when
 * the clipboard is refused the link is shown to copy by hand) and Import / export… (to the kit's
 * import panel).
 */
export function ScenarioBar({ groups, children }: { groups?: PickerGroups; children?: ReactNode }) {
  const store = useLabStore<StoreSlice>();
  // Its id and title only (strings): a drag move, which keeps both, does not re-render the bar.
  const scenarioId = useLab((st: StoreSlice) => selectScenario(st).id);
  const scenarioTitle = useLab((st: StoreSlice) => selectScenario(st).title);
  const builtins = useLab(selectBuiltins);
  const canUndo = useLab(selectCanUndo);
  const canRedo = useLab(selectCanRedo);
  // Step names quote event ids and titles from the scenario file: bidi controls removed, as in every other label.
  const undoStep = neutralised(useLab(selectUndoStep));
  const redoStep = neutralised(useLab(selectRedoStep));
  const modified = useLab(selectIsModified);
  const imported = useLab(selectImported);
  const importedList = useLab(selectImportedScenarios);
  const [status, setStatus] = useState<{ text: string; link?: string } | null>(null);
  // A new import replaces an older "Link copied" line, so "Imported … — Undo" shows (walkthrough).
  useEffect(() => {
    if (imported !== null) setStatus(null);
  }, [imported]);
  const pickerId = useId();
  const current = pickerCurrent(builtins, { id: scenarioId, title: scenarioTitle });
  // The current scenario's entry in the "Imported" group (same id and title), else -1.
  const listed = current.builtin ? -1 : importedList.findIndex((s) => s.id === scenarioId && s.title === scenarioTitle);
  const importedValues = useMemo(() => importedOptionValues(builtins, importedList), [builtins, importedList]);
  const pick = (value: string) => {
    const index = importedValues.indexOf(value);
    if (index < 0) store.getState().loadBuiltin(value);
    else store.getState().loadImported(index);
  };
  const grouped = useMemo(() => {
    if (!groups) return null;
    const out = new Map<string, Scenario[]>();
    for (const b of builtins) out.set(groups.of(b), [...(out.get(groups.of(b)) ?? []), b]);
    return [...out.entries()];
  }, [builtins, groups]);
  const option = (b: Scenario) => (
    <option key={b.id} value={b.id}>
      {pickerLabel(b)}
    </option>
  );

  const copyLink = async () => {
    const link = `${location.origin}${location.pathname}${location.search}${store.getState().address()}`;
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
        <select id={pickerId} data-testid="scenario-picker" value={listed >= 0 ? importedValues[listed] : current.value} onChange={(e) => pick(e.currentTarget.value)}>
          {!current.builtin && listed < 0 && (
            <option value={current.value} disabled>
              {neutraliseBidi(current.label)}
            </option>
          )}
          {importedList.length > 0 && (
            <optgroup label="Imported" data-testid="picker-imported">
              {importedList.map((s, i) => (
                <option key={importedValues[i]} value={importedValues[i]}>
                  {neutraliseBidi(`${s.title} (imported)`)}
                </option>
              ))}
            </optgroup>
          )}
          {grouped ? (
            grouped.map(([key, list]) => (
              <optgroup key={key} label={groups?.names[key] ?? key}>
                {list.map(option)}
              </optgroup>
            ))
          ) : importedList.length > 0 ? (
            <optgroup label="Lesson scenarios">{builtins.map(option)}</optgroup>
          ) : (
            builtins.map(option)
          )}
        </select>
        {modified ? (
          <span className="badge badge-info" data-testid="edited">
            edited
          </span>
        ) : (
          // Its place, kept: the first edit shows the badge without moving the buttons after it.
          <span className="badge badge-info is-placeholder" aria-hidden="true">
            edited
          </span>
        )}
      </div>
      {children && <div className="lab-bar-extra">{children}</div>}
      <div className="button-row" role="group" aria-label="Edit history and sharing">
        <button type="button" data-testid="undo" onClick={() => store.getState().undo()} disabled={!canUndo} title={undoStep ? `Undo: ${undoStep} (Ctrl+Z)` : 'Nothing to undo'} aria-label={undoStep ? `Undo: ${undoStep}` : 'Undo'}>
          Undo
        </button>
        <button type="button" data-testid="redo" onClick={() => store.getState().redo()} disabled={!canRedo} title={redoStep ? `Redo: ${redoStep} (Ctrl+Shift+Z)` : 'Nothing to redo'} aria-label={redoStep ? `Redo: ${redoStep}` : 'Redo'}>
          Redo
        </button>
        <button type="button" data-testid="reset" onClick={() => store.getState().reset()} title="Bring back the lesson's original scenario">
          Reset
        </button>
        <button type="button" data-testid="copy-link" onClick={() => void copyLink()}>
          Copy share link
        </button>
        <button type="button" data-testid="jump-import" onClick={jumpToImport}>
          Import / export…
        </button>
      </div>
      {(undoStep ?? redoStep) && !(imported !== null && !status) ? (
        // The step Ctrl+Z (else Ctrl+Shift+Z) takes, as visible text beside the buttons; one line,
        // cut with an ellipsis when narrow (the whole text in its tooltip). The buttons' names
        // already say it to assistive technology, so this copy is hidden from it; while
        // "Imported … — Undo" shows, that line says it.
        <span className="history-step small" data-testid="history-step" aria-hidden="true" title={undoStep ? `Undo: ${undoStep}` : `Redo: ${redoStep}`}>
          {undoStep ? `Undo: ${undoStep}` : `Redo: ${redoStep}`}
        </span>
      ) : (
        // Its place, kept while there is nothing to undo: the first edit then fills it instead of
        // wrapping the bar onto another line (the page jumped by that line, issue 27).
        <span className="history-step small is-empty" aria-hidden="true">
          {'\u00a0'}
        </span>
      )}
      <div className="share-status" role="status">
        {status && (
          <>
            <span className="small">{status.text}</span>
            {status.link && <input className="share-link" readOnly value={status.link} aria-label="Share link" onFocus={(e) => e.currentTarget.select()} />}
          </>
        )}
        {!status && imported !== null && (
          <span className="small" data-testid="import-status">
            Imported {neutraliseBidi(imported)} —{' '}
            <button type="button" className="small-btn" data-testid="import-undo" onClick={() => store.getState().undo()}>
              Undo
            </button>
          </span>
        )}
      </div>
    </div>
  );
}
