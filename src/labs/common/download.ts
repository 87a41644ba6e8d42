/**
 * Saves `content` (text or bytes) as a file named `filename` of MIME `type` (no network: a local
 * object URL, revoked a second later).
 */
export function downloadFile(filename: string, content: BlobPart, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Saves `text` as a file named `filename` (JSON unless `type` says otherwise). */
export function downloadText(filename: string, text: string, type = 'application/json'): void {
  downloadFile(filename, text, type);
}
