import { useId, useState } from 'react';
import { useRacesStore } from './context';
import { downloadText } from './download';

const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * After an import the news is at the top of the page: the new scenario's title and timeline, or
 * the error banner naming the problem. Go there, so nothing happens out of sight.
 */
function showImportResult() {
  if (window.scrollY > 0) window.scrollTo({ top: 0, behavior: 'smooth' });
}

/** Reads a dropped or chosen file and imports it; errors name the field and keep the scenario. */
export async function importFile(file: File, importText: (text: string, source?: string) => boolean, setError: (e: { title: string; errors: string[] }) => void) {
  if (file.size > MAX_FILE_BYTES) {
    setError({ title: `The file ${file.name} is not valid; the previous scenario is kept`, errors: [`(file): ${file.size} bytes is larger than the 20 MB limit`] });
    showImportResult();
    return;
  }
  const text = await file.text();
  importText(text, `The file ${file.name}`);
  showImportResult();
}

/** Import (paste, file, drag and drop) and export of scenario JSON. */
export function ImportPanel() {
  const store = useRacesStore();
  const [text, setText] = useState('');
  const [over, setOver] = useState(false);
  const taId = useId();
  const fileId = useId();
  const s = store.getState;

  return (
    <section
      className={`panel import${over ? ' is-dragover' : ''}`}
      aria-labelledby="import-h"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file) void importFile(file, s().importText, s().setError);
      }}
    >
      <h2 id="import-h">Import / export</h2>
      <p className="small muted">Paste scenario JSON, choose a file, or drop a .json file anywhere on the page. A bad file is rejected with the fields named; the current scenario stays.</p>
      <label htmlFor={taId} className="small">
        Scenario JSON
      </label>
      <textarea id={taId} data-testid="import-text" rows={4} spellCheck={false} value={text} onChange={(e) => setText(e.currentTarget.value)} placeholder='{ "format": 1, "lab": "races", … }' />
      <div className="button-row">
        <button
          type="button"
          onClick={() => {
            if (s().importText(text, 'The pasted scenario')) setText('');
            showImportResult();
          }}
          disabled={text.trim() === ''}
        >
          Import
        </button>
        <label htmlFor={fileId} className="file-label">
          Open file…
        </label>
        <input
          id={fileId}
          className="visually-hidden-file"
          type="file"
          accept="application/json,.json"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) void importFile(file, s().importText, s().setError);
          }}
        />
        <button
          type="button"
          onClick={() => {
            const { filename, text: json } = s().exportJson();
            downloadText(filename, json);
          }}
        >
          Export JSON
        </button>
      </div>
    </section>
  );
}
