import type { LabError } from './ErrorBanner';
import { useWindowFileDrop } from './useWindowFileDrop';

/**
 * Scenario file import outside the Import / export panel: the page-level drop, the file reader
 * both use, and the panel's element id. Kept apart from the panel component so the first paint
 * needs only these (the panel itself is a lazy chunk in the races lab, issue 10's initial-JS budget).
 */

/** The element id of a lab's scenario Import / export panel (the scenario bar's "Import / export…" jumps to it). */
export const IMPORT_PANEL_ID = 'lab-import';

/**
 * After an import the news is at the top of the page: the new scenario's title and timeline, or
 * the error banner naming the problem. Go there, so nothing happens out of sight.
 */
export function showImportResult(): void {
  if (window.scrollY > 0) window.scrollTo({ top: 0, behavior: 'smooth' });
}

/** Largest scenario file accepted (bytes). */
export const MAX_SCENARIO_FILE_BYTES = 20 * 1024 * 1024;

/**
 * Reads a dropped or chosen file and hands its text to `importText` (source "The file <name>").
 * A file over 20 MB or one that cannot be read raises an error through `setError`; the current
 * scenario is never touched by this function.
 */
export async function importScenarioFile(file: File, importText: (text: string, source: string) => unknown, setError: (e: LabError) => void): Promise<void> {
  if (file.size > MAX_SCENARIO_FILE_BYTES) {
    setError({ title: `The file ${file.name} was not loaded; the previous scenario is kept`, errors: [`(file): ${file.size} bytes is larger than the 20 MB limit`] });
    showImportResult();
    return;
  }
  let text: string;
  try {
    text = await file.text();
  } catch (err) {
    setError({ title: `The file ${file.name} could not be read; the previous scenario is kept`, errors: [`(file): ${(err as Error).message}`] });
    showImportResult();
    return;
  }
  importText(text, `The file ${file.name}`);
  showImportResult();
}

/** Imports a scenario file dropped anywhere on the page (the panel below also takes drops). */
export function usePageFileDrop(importText: (text: string, source: string) => unknown, setError: (e: LabError) => void): void {
  useWindowFileDrop((file) => void importScenarioFile(file, importText, setError));
}
