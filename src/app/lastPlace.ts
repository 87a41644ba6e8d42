/**
 * Where a visitor was: the last lab address (hash) they had open, kept in localStorage, so `#/`
 * takes a returning visitor back there and a first visit to the Start page. Storage failures
 * (private mode, quota) only mean nothing is remembered.
 */
const KEY = 'mcp-lab.last-place';

/** The remembered lab address (`#/<lab>…`), or null. */
export function recallPlace(): string | null {
  try {
    const v = localStorage.getItem(KEY);
    return v !== null && /^#\/[A-Za-z0-9-]+/.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** Remembers `hash` when it is a lab's address (not the Start page, not `#/`). */
export function rememberPlace(hash: string, isLab: (id: string) => boolean): void {
  const id = /^#\/([A-Za-z0-9-]+)/.exec(hash)?.[1];
  if (id === undefined || !isLab(id)) return;
  try {
    localStorage.setItem(KEY, hash);
  } catch {
    // nothing remembered
  }
}
