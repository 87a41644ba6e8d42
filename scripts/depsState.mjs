// Whether node_modules matches package-lock.json, decided by content, not file times (issue 27:
// a fresh clone with a copied node_modules ran a full install because its files were older; an
// interrupted install left node_modules empty and the next start believed it).
import { createHash } from 'node:crypto';

/** Where a completed install records the lockfile it installed (sha256 of package-lock.json). */
export const LOCK_MARKER = 'node_modules/.lab-installed-lock.sha256';

/** The sha256 of a lockfile's text. */
export function lockHash(lockText) {
  return createHash('sha256').update(lockText).digest('hex');
}

/** A lockfile's `packages` without the root entry (null: not a lockfile). */
function packagesOf(lockText) {
  try {
    const packages = { ...(JSON.parse(lockText).packages ?? {}) };
    delete packages[''];
    return packages;
  } catch {
    return null;
  }
}

/**
 * Whether npm's hidden lockfile (what node_modules holds) matches the lockfile: every package it
 * holds is the lockfile's version, and every package the lockfile needs is there (optional ones —
 * another platform's binaries — may be absent).
 */
function matches(lockText, hiddenLockText) {
  const want = packagesOf(lockText);
  const have = packagesOf(hiddenLockText);
  if (want === null || have === null) return false;
  if (Object.keys(want).length === 0) return Object.keys(have).length === 0;
  for (const [k, h] of Object.entries(have)) if (want[k] === undefined || want[k].version !== h.version) return false;
  for (const [k, w] of Object.entries(want)) if (have[k] === undefined && !w.optional) return false;
  return true;
}

/**
 * 'fresh' (nothing to do), 'stale' (the lockfile changed) or 'missing' (no complete install).
 * `markerText`: the marker a completed install wrote (null: none); `hiddenLockText`: npm's
 * node_modules/.package-lock.json (null: none). Without a marker — an install by hand, or a copied
 * node_modules — the hidden lockfile's packages are compared with the lockfile's; with neither, or
 * when npm was interrupted (it writes the hidden lockfile last, the marker is written after it), the
 * install is 'missing' and runs again.
 */
export function depsState({ lockText, markerText, hiddenLockText }) {
  if (markerText !== null) return markerText.trim() === lockHash(lockText) ? 'fresh' : 'stale';
  if (hiddenLockText === null) return 'missing';
  return matches(lockText, hiddenLockText) ? 'fresh' : 'stale';
}
