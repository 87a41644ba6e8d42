import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestId } from '../sim/mcp';
import type { CallSpan, CheckReport, Finding, ImportResult, SkippedLine, Transcript, TranscriptFormat } from '../wire/transcript';
import { exportTranscript, filterEntries, stepFinding, transcriptRecords, transcriptToScenario } from '../wire/transcript';
import { builtinRaces } from './builtinRaces';
import { encodeLink, pageLinkWarnings } from './labLink';
import type { LabError } from './labTexts';

/**
 * The traffic page's store (issue 12): a read-only imported transcript, its check report and the
 * view state (selected entry, current finding, filter, check options). A vanilla zustand store like
 * the labs' (`createLabStore`), but smaller: a transcript is not edited, so there is no undo, no
 * playback and no scenario. Parsing and checking run in a Web Worker (src/labs/traffic); the store
 * only receives their results, so it is testable without a worker.
 *
 * Rule of the Import panel: a failed import (nothing usable, a cancelled job, an unreadable file)
 * raises `error` and keeps the previous transcript, report and selection.
 */

export type {
  CallSpan,
  CallOutcome,
  CheckReport,
  Finding,
  ImportResult,
  MessageEntry,
  MetaEntry,
  SkippedLine,
  Transcript,
  TranscriptEntry,
  TranscriptFormat,
  Severity,
} from '../wire/transcript';
export { TRANSCRIPT_FORMATS, TRANSCRIPT_FORMAT_NAMES, TRANSCRIPT_FORMAT_EXTENSIONS, SCENARIO_CALL_METHODS } from '../wire/transcript';

/** Default latency allowance for "well after a cancellation" (ms), as `checkTranscript`'s. */
export const DEFAULT_ALLOWANCE_MS = 1000;
/** Largest allowance or maximum the inputs accept (ms): one day. */
export const MAX_OPTION_MS = 86_400_000;

/** Where a long import job is: reading the file, parsing the lines, checking the messages. */
export interface TrafficProgress {
  stage: 'reading' | 'parsing' | 'checking';
  /** Lines of the input (known once the text is read). */
  lines: number;
  /** Where the text came from ("The file x.log", "The pasted text", "The sample …"). */
  source: string;
}

/** The filter of the message list and timeline, as typed (empty: no filter on that field). */
export interface TrafficFilter {
  id: string;
  method: string;
  tool: string;
}

export interface TrafficData {
  transcript: Transcript | null;
  report: CheckReport | null;
  /** `callSpans(transcript)`, computed in the worker. */
  spans: CallSpan[];
  /** Where the loaded transcript came from. */
  source: string | null;
  /** Increments on every successful import (resets the timeline zoom). */
  loadCount: number;
  /** A job in flight (null when idle). */
  progress: TrafficProgress | null;
  error: LabError | null;
  /** Index into `transcript.entries` of the selected entry (wire panel), or null. */
  selectedEntry: number | null;
  /** Index into `report.findings` of the current finding, or null. */
  currentFinding: number | null;
  /** Playhead (virtual ms). */
  cursorMs: number;
  filter: TrafficFilter;
  allowanceText: string;
  maxText: string;
  /** Per-field problems of the check options (`field: what is wrong — what to do`). */
  fieldErrors: { allowanceMs?: string; maxMs?: string };
}

export interface TrafficActions {
  /** A job started (its progress line shows; the current transcript stays until it ends). */
  begin(progress: TrafficProgress): void;
  /** The job moved to another stage. */
  advance(stage: TrafficProgress['stage']): void;
  /** An import ended: `ok` replaces the transcript; otherwise the reason is shown and the previous one kept. */
  finishImport(source: string, result: ImportResult, report: CheckReport | null, spans: CallSpan[]): void;
  /** A re-check (new allowance or maximum) finished. */
  finishCheck(report: CheckReport): void;
  /** The job failed (a bug, or an unreadable file): `title` and one `field: problem` line; the transcript is kept. */
  fail(title: string, error: string): void;
  /** The job was cancelled by the user. */
  cancel(): void;
  setError(error: LabError | null): void;
  selectEntry(index: number | null): void;
  /** Makes finding `i` current: selects the entry at the finding's time (the offending message; else its first) and moves the playhead there. */
  selectFinding(i: number | null): void;
  /** Next / previous finding from the current one (or from the playhead). */
  stepFinding(direction: 'next' | 'previous'): void;
  /** Moves the playhead and selects the message nearest to it (among the shown ones). */
  seek(ms: number): void;
  setFilter(field: keyof TrafficFilter, value: string): void;
  /** Sets the allowance text; returns the check options when both inputs are valid, else null (errors in `fieldErrors`). */
  setAllowanceText(text: string): { allowanceMs: number; maxMs: number | null } | null;
  setMaxText(text: string): { allowanceMs: number; maxMs: number | null } | null;
  /**
   * Reads an address opened on the page. The page has no scenario and no link parameters, so, as
   * the labs do, every parameter (and any scenario id after `#/traffic/`) is reported as ignored in
   * the banner and the transcript stays. Returns true when the address was this page's but not
   * plain `#/traffic` (the page then writes `#/traffic` back, as the labs rewrite theirs).
   */
  followLink(hash: string): boolean;
}

export type TrafficState = TrafficData & TrafficActions;
export type TrafficStore = StoreApi<TrafficState>;

/**
 * Reads a millisecond input: a whole number from 0 to one day. Empty is allowed only when
 * `optional` (→ null). Returns the value or the problem in the shared wording.
 */
export function parseMsInput(field: string, text: string, optional: boolean): { ok: true; value: number | null } | { ok: false; error: string } {
  const t = text.trim();
  if (t === '') {
    if (optional) return { ok: true, value: null };
    return { ok: false, error: `${field}: is empty — type a whole number of milliseconds, e.g. ${DEFAULT_ALLOWANCE_MS}` };
  }
  if (!/^\d+$/.test(t)) return { ok: false, error: `${field}: ${JSON.stringify(t)} is not a whole number of milliseconds — type digits only, e.g. ${DEFAULT_ALLOWANCE_MS}` };
  const n = Number(t);
  if (n > MAX_OPTION_MS) return { ok: false, error: `${field}: ${n} ms is more than one day (${MAX_OPTION_MS} ms) — type a smaller number` };
  if (!optional && n === 0) return { ok: true, value: 0 };
  if (optional && n === 0) return { ok: false, error: `${field}: 0 ms would flag every call — leave it empty for no maximum, or type the longest a call may run` };
  return { ok: true, value: n };
}

/** The check options from the two inputs, or null with `fieldErrors` filled. */
export function checkOptionsOf(allowanceText: string, maxText: string): { options: { allowanceMs: number; maxMs: number | null } | null; fieldErrors: TrafficData['fieldErrors'] } {
  const a = parseMsInput('allowanceMs', allowanceText, false);
  const m = parseMsInput('maxMs', maxText, true);
  const fieldErrors: TrafficData['fieldErrors'] = {};
  if (!a.ok) fieldErrors.allowanceMs = a.error;
  if (!m.ok) fieldErrors.maxMs = m.error;
  if (!a.ok || !m.ok) return { options: null, fieldErrors };
  return { options: { allowanceMs: a.value ?? DEFAULT_ALLOWANCE_MS, maxMs: m.value }, fieldErrors };
}

/** A typed request id: digits → a number id, anything else → a string id (JSON-RPC allows both). */
export function requestIdOfText(text: string): RequestId {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/**
 * The indices of the entries the filter shows (all when the filter is empty), as `filterEntries`
 * (src/wire/transcript/view.ts) decides them. With `spans` (the store's, computed once in the
 * worker) the call spans are not rebuilt on every keystroke — the same rule, read from them.
 */
export function shownEntries(t: Transcript, filter: TrafficFilter, spans?: readonly CallSpan[]): number[] {
  const f: { id?: RequestId; method?: string; tool?: string } = {};
  if (filter.id.trim() !== '') f.id = requestIdOfText(filter.id);
  if (filter.method.trim() !== '') f.method = filter.method.trim();
  if (filter.tool.trim() !== '') f.tool = filter.tool.trim();
  if (!spans || (f.id === undefined && f.method === undefined && f.tool === undefined)) return filterEntries(t, f);
  const spanOf = new Map<number, CallSpan>();
  for (const s of spans) for (const i of s.entries) spanOf.set(i, s);
  const idKey = f.id === undefined ? null : JSON.stringify(f.id);
  const out: number[] = [];
  for (const e of t.entries) {
    if (e.type === 'stderr') continue;
    const s = spanOf.get(e.index);
    if (idKey !== null) {
      const named = e.type === 'meta' ? e.requestId : s?.id;
      if (named === undefined || JSON.stringify(named) !== idKey) continue;
    }
    if (f.method !== undefined) {
      const m = e.type === 'message' && e.message !== null && typeof e.message === 'object' && !Array.isArray(e.message) && typeof e.message.method === 'string' ? e.message.method : undefined;
      if (m !== f.method && s?.method !== f.method) continue;
    }
    if (f.tool !== undefined && s?.tool !== f.tool) continue;
    out.push(e.index);
  }
  return out;
}

/** The one line shown when an import gives nothing usable (the reason, and the skipped count). */
function failureError(source: string, reason: string, skipped: readonly SkippedLine[], kept: boolean): LabError {
  const keep = kept ? 'the previous transcript is kept' : 'nothing is loaded';
  const errors = [`(transcript): ${reason}`];
  if (skipped.length > 0) errors.push(`(transcript): ${skipped.length} line(s) skipped, first at line ${skipped[0].line}: ${skipped[0].reason}`);
  return { title: `${source} was not loaded; ${keep}`, errors };
}

const initial: TrafficData = {
  transcript: null,
  report: null,
  spans: [],
  source: null,
  loadCount: 0,
  progress: null,
  error: null,
  selectedEntry: null,
  currentFinding: null,
  cursorMs: 0,
  filter: { id: '', method: '', tool: '' },
  allowanceText: String(DEFAULT_ALLOWANCE_MS),
  maxText: '',
  fieldErrors: {},
};

/** Makes a traffic store (one per tab, through `labStoreFor('traffic', …)`). */
export function createTrafficStore(): TrafficStore {
  return createStore<TrafficState>()((set, get) => ({
    ...initial,
    begin: (progress) => set({ progress }),
    advance: (stage) => {
      const p = get().progress;
      if (p) set({ progress: { ...p, stage } });
    },
    finishImport: (source, result, report, spans) => {
      if (!result.ok) {
        set((s) => ({ progress: null, error: failureError(source, result.reason, result.skipped, s.transcript !== null) }));
        return;
      }
      set((s) => ({
        transcript: result.transcript,
        report,
        spans,
        source,
        loadCount: s.loadCount + 1,
        progress: null,
        error: null,
        selectedEntry: result.transcript.messageIndices[0] ?? null,
        currentFinding: null,
        cursorMs: 0,
        filter: { id: '', method: '', tool: '' },
      }));
    },
    finishCheck: (report) => set({ report, currentFinding: null, progress: null }),
    cancel: () => {
      const p = get().progress;
      if (!p) return;
      set((s) => ({ progress: null, error: { title: `${p.source} was not loaded; ${s.transcript ? 'the previous transcript is kept' : 'nothing is loaded'}`, errors: ['(transcript): cancelled — import it again to load it'] } }));
    },
    fail: (title, error) => set({ progress: null, error: { title, errors: [error] } }),
    setError: (error) => set({ error }),
    selectEntry: (index) => {
      const t = get().transcript;
      if (index === null || !t || !t.entries[index]) return set({ selectedEntry: null });
      set({ selectedEntry: index, cursorMs: Math.max(0, t.entries[index].atMs) });
    },
    selectFinding: (i) => {
      const { report, transcript } = get();
      const f: Finding | undefined = i === null ? undefined : report?.findings[i];
      if (!f || !transcript) return set({ currentFinding: null });
      const at = f.entries.find((ix) => transcript.entries[ix]?.atMs === f.atMs) ?? f.entries[0];
      set({ currentFinding: i, selectedEntry: at ?? null, cursorMs: Math.max(0, at !== undefined ? transcript.entries[at].atMs : f.atMs) });
    },
    stepFinding: (direction) => {
      const { report, cursorMs, currentFinding } = get();
      if (!report) return;
      // From the playhead, a finding at the playhead itself counts as "next" (the first step from 0 ms).
      const from = currentFinding === null && direction === 'next' ? cursorMs - 1 : cursorMs;
      const i = stepFinding(report.findings, from, direction, currentFinding);
      get().selectFinding(i);
    },
    seek: (ms) => {
      const { transcript, filter, spans } = get();
      if (!transcript) return set({ cursorMs: ms });
      // The nearest shown message to the playhead (the list is sorted by time).
      const shown = shownEntries(transcript, filter, spans).filter((i) => transcript.entries[i].type === 'message');
      let best: number | null = null;
      let bestGap = Infinity;
      for (const i of shown) {
        const gap = Math.abs(transcript.entries[i].atMs - ms);
        if (gap < bestGap) {
          best = i;
          bestGap = gap;
        }
      }
      set({ cursorMs: ms, selectedEntry: best });
    },
    followLink: (hash) => {
      const loaded = get().transcript !== null;
      const warnings = pageLinkWarnings('traffic', hash, loaded ? 'the transcript' : null);
      if (warnings === null || warnings.length === 0) return false;
      set({ error: { title: `Parts of the link are not valid; showing the Traffic page${loaded ? ' with the loaded transcript' : ''}`, errors: warnings } });
      return true;
    },
    setFilter: (field, value) => set((s) => ({ filter: { ...s.filter, [field]: value } })),
    setAllowanceText: (text) => {
      const { options, fieldErrors } = checkOptionsOf(text, get().maxText);
      set({ allowanceText: text, fieldErrors });
      return options;
    },
    setMaxText: (text) => {
      const { options, fieldErrors } = checkOptionsOf(get().allowanceText, text);
      set({ maxText: text, fieldErrors });
      return options;
    },
  }));
}

/** The file name and text of the loaded transcript in `format` (values hashed when `redact`). */
export function exportLoaded(t: Transcript, format: TranscriptFormat, redact: boolean, baseName = 'transcript'): { filename: string; text: string } {
  const text = exportTranscript(transcriptRecords(t), format, { redact, ...(t.originIso ? { originIso: t.originIso } : {}) });
  const ext = format === 'claude-desktop-log' ? 'log' : format === 'inspector-v2' ? 'json' : 'jsonl';
  const name = format === 'claude-desktop-log' ? `mcp-server-${baseName}` : `${baseName}-${format}`;
  return { filename: `${name}${redact ? '-redacted' : ''}.${ext}`, text };
}

/**
 * "Open as a scenario": the races-lab address (`#/races?scenario=…`, the shared link codec) of the
 * transcript — or of call `requestId` only — as an editable races scenario, or the reasons it
 * cannot become one (the races parser's errors).
 */
export function scenarioLinkOf(t: Transcript, requestId?: RequestId): { ok: true; href: string; dropped: number; note: string | null } | { ok: false; errors: string[] } {
  const r = transcriptToScenario(t, requestId === undefined ? {} : { requestId });
  if (!r.ok) return { ok: false, errors: r.errors };
  const { scenarios } = builtinRaces();
  return { ok: true, href: encodeLink('races', r.scenario, scenarios, { configParams: true }), dropped: r.dropped.length, note: r.pageProblem };
}
