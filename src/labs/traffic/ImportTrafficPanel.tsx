import { useId, useState } from 'react';
import { DropPanel, OpenFileButton } from '../common/DropPanel';
import { showImportResult } from '../common/importFile';
import { useWindowFileDrop } from '../common/useWindowFileDrop';
import { currentCheckOptions, useTraffic, useTrafficApi } from './context';
import { loadSample, TRAFFIC_SAMPLES } from './samples';
import { BINARY_REASON, decodeTranscript, sniffEncoding } from '../../wire/transcript/encoding';

/** Largest transcript file accepted (bytes). */
export const MAX_TRANSCRIPT_FILE_BYTES = 200 * 1024 * 1024;

/** Reads a chosen or dropped file and imports it (errors go to the banner; the transcript is kept). */
export function useTrafficFileImport() {
  const { store, runner } = useTrafficApi();
  return async (file: File) => {
    const s = store.getState();
    if (file.size > MAX_TRANSCRIPT_FILE_BYTES) {
      s.setError({ title: `The file ${file.name} was not loaded; the previous transcript is kept`, errors: [`(file): ${file.size} bytes is larger than the 200 MB limit — split the log`] });
      return showImportResult();
    }
    s.begin({ stage: 'reading', lines: 0, source: `The file ${file.name}` });
    let text: string;
    try {
      // The first bytes say the encoding: UTF-8 is read as before (file.text(), off the main thread); UTF-16 is
      // decoded and a binary file named, as the CLI does (src/wire/transcript/encoding.ts).
      const encoding = sniffEncoding(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
      if (encoding === 'utf-8') text = await file.text();
      else {
        const decoded = encoding === 'binary' ? { ok: false as const, reason: BINARY_REASON } : decodeTranscript(new Uint8Array(await file.arrayBuffer()));
        if (!decoded.ok) {
          s.fail(`The file ${file.name} was not loaded; the previous transcript is kept`, `(file): ${decoded.reason}`);
          return showImportResult();
        }
        text = decoded.text;
      }
    } catch (err) {
      s.fail(`The file ${file.name} could not be read; the previous transcript is kept`, `(file): ${(err as Error).message} — choose the file again`);
      return showImportResult();
    }
    runner.importText(text, `The file ${file.name}`, currentCheckOptions(store.getState()));
    showImportResult();
  };
}

/** Transcript files dropped anywhere on the page are imported. */
export function usePageTranscriptDrop(importFile: (f: File) => Promise<void>) {
  useWindowFileDrop((file) => void importFile(file));
}

/**
 * Import of a transcript, as the labs' Import panel (paste, "Open file…", drop — same test ids
 * `import-text`, `import-paste`, `import-open`, `import-file`) plus a picker of the project's
 * sample transcripts. The format is detected from the text; a job in flight shows its stage and
 * a Cancel button.
 */
export function ImportTrafficPanel() {
  const { store, runner } = useTrafficApi();
  const progress = useTraffic((s) => s.progress);
  const loadCount = useTraffic((s) => s.loadCount);
  const [text, setText] = useState('');
  const [pastedAt, setPastedAt] = useState<number | null>(null);
  // A pasted transcript that loaded empties the box (as the labs' Import panel does); a failed one stays to be fixed.
  if (pastedAt !== null && loadCount > pastedAt) {
    setPastedAt(null);
    setText('');
  }
  const importFile = useTrafficFileImport();
  const [sample, setSample] = useState('');
  // Once a file or a paste replaced the sample's transcript, the picker no longer names that sample (walkthrough).
  const loadedSource = useTraffic((s) => s.source);
  const shownSample = loadedSource !== null && !loadedSource.startsWith('The sample ') ? '' : sample;
  const taId = useId();
  const sampleId = useId();
  const headId = useId();
  return (
    <DropPanel title="Import traffic" headId={headId} onFile={(file) => void importFile(file)}>
      <p className="small muted">
        Paste a log, open a file or drop it anywhere on the page: a Claude Desktop server log, an MCP Inspector v2 protocol export, JSON-RPC JSONL (one message per line; ts and dir optional), or a capture envelope JSONL. The
        format is detected. Everything stays in this browser.
      </p>
      <div className="traffic-sample">
        <label htmlFor={sampleId} className="small">
          Or try a sample
        </label>
        <select
          id={sampleId}
          data-testid="traffic-sample"
          value={shownSample}
          onChange={async (e) => {
            const file = e.currentTarget.value;
            setSample(file);
            if (!file) return;
            const body = await loadSample(file);
            if (body === null) {
              store.getState().setError({ title: `The sample ${file} was not loaded`, errors: [`(sample): no such file under public/transcripts/ — pick another sample`] });
              return;
            }
            const maxMs = TRAFFIC_SAMPLES.find((s) => s.file === file)?.maxMs ?? null;
            if (maxMs !== null) store.getState().setMaxText(String(maxMs));
            runner.importText(body, `The sample ${file.split('/').pop()}`, currentCheckOptions(store.getState()));
          }}
        >
          <option value="">— pick a sample transcript —</option>
          {TRAFFIC_SAMPLES.map((s) => (
            <option key={s.file} value={s.file}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <label htmlFor={taId} className="small">
        Transcript text
      </label>
      <textarea
        id={taId}
        data-testid="import-text"
        rows={3}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder='2025-04-18T11:26:18.805Z [server] [info] Message from client: {"method":"initialize",…}'
      />
      <div className="button-row">
        <button
          type="button"
          data-testid="import-paste"
          disabled={text.trim() === '' || progress !== null}
          onClick={() => {
            setPastedAt(loadCount);
            runner.importText(text, 'The pasted text', currentCheckOptions(store.getState()));
            showImportResult();
          }}
        >
          Import
        </button>
        <OpenFileButton testIdPrefix="import" ariaLabel="Transcript file" accept=".log,.json,.jsonl,.txt,text/plain,application/json" onFile={(file) => void importFile(file)} />
        {text !== '' && (
          <button type="button" className="small-btn" onClick={() => setText('')}>
            Clear
          </button>
        )}
      </div>
      {progress && (
        <div className="traffic-progress" role="status" data-testid="traffic-progress">
          <span className="spinner" aria-hidden="true" />
          <span>
            {progress.source}: {progress.stage === 'reading' ? 'reading the file…' : progress.stage === 'parsing' ? `parsing ${progress.lines.toLocaleString('en')} lines…` : 'checking the messages…'}
          </span>
          <button type="button" className="small-btn" data-testid="traffic-cancel" onClick={() => runner.cancel()}>
            Cancel
          </button>
        </div>
      )}
    </DropPanel>
  );
}
