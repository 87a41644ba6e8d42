import './common.css';
import { useId, useState } from 'react';
import { DropPanel, OpenFileButton } from './DropPanel';
import { downloadText } from './download';
import type { LabError } from './ErrorBanner';
import { IMPORT_PANEL_ID, importScenarioFile, showImportResult } from './importFile';

/**
 * Import (paste, "Open file…" button, drag and drop) and export of scenario JSON, the same in every
 * lab. `importText` returns true when the scenario loaded (the paste box then empties); on false
 * the store has already shown the error banner and kept its scenario. `exportJson` gives the file
 * to download. `testIdPrefix` names the controls for end-to-end tests (`<prefix>-text`,
 * `<prefix>-file`, `<prefix>-paste`, `<prefix>-export`).
 */
export function ImportPanel(props: {
  lab: string;
  importText(text: string, source: string): boolean;
  setError(e: LabError): void;
  exportJson(): { filename: string; text: string };
  testIdPrefix?: string;
}) {
  const { lab, importText, setError, exportJson, testIdPrefix = 'import' } = props;
  const [text, setText] = useState('');
  // Said here too: the scenario bar that also says it may be scrolled out of view (walkthrough).
  const [loaded, setLoaded] = useState<string | null>(null);
  const importHere = (t: string, source: string): boolean => {
    const ok = importText(t, source);
    setLoaded(ok ? source : null);
    return ok;
  };
  const taId = useId();
  const fileId = useId();
  const headId = useId();
  return (
    <DropPanel id={IMPORT_PANEL_ID} title="Import / export" headId={headId} onFile={(file) => void importScenarioFile(file, importHere, setError)}>
      <p className="small muted">
        Paste scenario JSON, open a file, or drop a .json file anywhere on the page. A bad file is rejected with the fields named; another lab&apos;s file names its lab. The current scenario stays
        until a good one loads.
      </p>
      <label htmlFor={taId} className="small">
        Scenario JSON
      </label>
      <textarea id={taId} data-testid={`${testIdPrefix}-text`} rows={3} spellCheck={false} value={text} onChange={(e) => setText(e.currentTarget.value)} placeholder={`{ "format": 1, "lab": "${lab}", … }`} />
      <div className="button-row">
        <button type="button" data-testid={`${testIdPrefix}-paste`} onClick={() => {
            if (importHere(text, 'The pasted scenario')) setText('');
            showImportResult();
          }} disabled={text.trim() === ''}>
          Import
        </button>
        <OpenFileButton testIdPrefix={testIdPrefix} inputId={fileId} ariaLabel="Scenario file" accept="application/json,.json" onFile={(file) => void importScenarioFile(file, importHere, setError)} />
        <button
          type="button"
          data-testid={`${testIdPrefix}-export`}
          onClick={() => {
            const { filename, text: json } = exportJson();
            downloadText(filename, json);
          }}
        >
          Export JSON
        </button>
      </div>
      <p className="small" role="status" data-testid={`${testIdPrefix}-loaded`}>
        {loaded !== null && `${loaded} is loaded: it is the scenario at the top of the page now (Undo there takes it back).`}
      </p>
    </DropPanel>
  );
}
