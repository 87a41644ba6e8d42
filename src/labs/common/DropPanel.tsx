import { useRef, useState, type ReactNode } from 'react';

/**
 * The kit's file pieces, shared by every Import panel: a panel section that takes a dropped file
 * (highlighted while a file is over it) and an "Open file…" button that opens the picker.
 */

/** A `<section className="panel import">` titled `title` that hands a file dropped on it to `onFile` (the page-level drop stops here). */
export function DropPanel(props: { title: string; headId: string; onFile: (file: File) => void; children: ReactNode; id?: string }) {
  const { title, headId, onFile, children, id } = props;
  const [over, setOver] = useState(false);
  return (
    <section
      id={id}
      className={`panel import${over ? ' is-dragover' : ''}`}
      aria-labelledby={headId}
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
        if (file) onFile(file);
      }}
    >
      <h2 id={headId}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * "Open file…": a real button takes the focus (and its ring) and Enter/Space; the file input itself
 * stays out of the tab order. The chosen file goes to `onFile`; the input is cleared so the same
 * file can be chosen again. Test ids `<testIdPrefix>-open` and `<testIdPrefix>-file`.
 */
export function OpenFileButton(props: { testIdPrefix: string; ariaLabel: string; accept: string; onFile: (file: File) => void; inputId?: string }) {
  const { testIdPrefix, ariaLabel, accept, onFile, inputId } = props;
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="file-label" data-testid={`${testIdPrefix}-open`} onClick={() => fileRef.current?.click()}>
        Open file…
      </button>
      <input
        ref={fileRef}
        id={inputId}
        className="visually-hidden-file"
        type="file"
        tabIndex={-1}
        aria-label={ariaLabel}
        accept={accept}
        data-testid={`${testIdPrefix}-file`}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (file) onFile(file);
        }}
      />
    </>
  );
}
