/**
 * `npm run check -- FILE [--text] [--allowance-ms N] [--max-ms N] [--revision R] [--format F]`
 *
 * Imports a transcript (format auto-detected: Claude Desktop log, MCP Inspector v2 export,
 * JSON-RPC JSONL, capture envelope JSONL) and checks the observed messages against the labs'
 * rules (see src/wire/transcript/checks.ts). Prints one JSON document on stdout —
 * `{ file, format, revision, revisionNote, counts, clean, skipped, outOfOrder, findings[] }` — or,
 * with `--text`, a short human summary.
 *
 * Exit codes: 0 clean (no error or warning finding); 3 a rule broken; 1 unreadable input (a
 * missing file, no known format, nothing usable) with a one-line reason on stderr; 2 a bad
 * command line (the usage on stderr), as `npm run replay` does.
 */
import { readFileSync } from 'node:fs';
import { REVISIONS, type Revision } from '../sim/mcp';
// From the modules themselves, not the transcript index: the index also exports the exporters, redaction and
// the scenario conversion, whose imports (every lab's zod schemas, hashing) the check would load and never run.
import { decodeTranscript, printable } from '../wire/transcript/encoding';
import { importTranscript } from '../wire/transcript/parse';
import { checkTranscript, type CheckReport } from '../wire/transcript/checks';
import { TRANSCRIPT_FORMATS, type Transcript, type TranscriptFormat } from '../wire/transcript/types';
import { streamCheck } from './checkStream';

/** What a run of the command produced (for tests and for embedding in another CLI entry). */
export interface CheckCliResult {
  code: number;
  stdout: string;
  stderr: string;
}

const USAGE = 'usage: npm run check -- FILE [--text] [--allowance-ms N] [--max-ms N] [--revision 2026-07-28|2025-11-25] [--format claude-desktop-log|inspector-v2|jsonrpc-jsonl|capture-jsonl]';

function nonNegativeInt(flag: string, v: string | undefined): number | string {
  if (v === undefined || !/^\d+$/.test(v)) return `${flag}: must be a whole number of milliseconds ≥ 0, got ${JSON.stringify(v ?? null)}`;
  return Number(v);
}

/** Skipped lines named one by one in the --text summary; the rest are counted. */
const SKIPPED_SHOWN = 10;

/** The human summary printed with --text: the file, its counts, each finding, then the skipped lines (line number and reason, the first 10). */
export function textSummary(file: string, t: Transcript, report: CheckReport): string {
  return summary(file, { formatName: t.formatName, messages: t.messageIndices.length, skipped: t.skipped, outOfOrder: t.outOfOrder, ...(t.timeAssumption ? { timeAssumption: t.timeAssumption } : {}) }, report);
}

/** What the summary says of the file. */
interface SummaryInfo {
  formatName: string;
  messages: number;
  skipped: Transcript['skipped'];
  outOfOrder: Transcript['outOfOrder'];
  timeAssumption?: string;
}

function summary(file: string, t: SummaryInfo, report: CheckReport): string {
  const lines = [
    `${file}: ${t.formatName}; ${t.messages} messages, ${t.skipped.length} lines skipped${t.outOfOrder.count ? `, ${t.outOfOrder.count} out of order (sorted)` : ''}${t.timeAssumption ? `; ${t.timeAssumption}` : ''}; revision ${report.revisionNote}`,
    report.findings.length === 0
      ? 'clean: no rule broken'
      : `${report.counts.error} error${report.counts.error === 1 ? '' : 's'}, ${report.counts.warning} warning${report.counts.warning === 1 ? '' : 's'}, ${report.counts.info} info`,
  ];
  for (const f of report.findings) lines.push(`  [${f.severity}] ${f.atMs} ms ${f.check} (${f.rule}): ${f.message}  → ${f.teaches.href}`);
  // Which lines were skipped and why (the walkthrough read "2 lines skipped" and could not find them).
  for (const k of t.skipped.slice(0, SKIPPED_SHOWN)) lines.push(`  skipped line ${k.line}: ${k.reason}`);
  if (t.skipped.length > SKIPPED_SHOWN) lines.push(`  … and ${t.skipped.length - SKIPPED_SHOWN} more skipped lines (the JSON output, without --text, lists every one)`);
  return `${lines.join('\n')}\n`;
}

/** The command line of `check`, read. */
interface CheckArgs {
  file: string;
  text: boolean;
  allowanceMs?: number;
  maxMs?: number;
  revision?: Revision;
  format?: TranscriptFormat;
}

/** Reads a file's bytes as transcript text (UTF-8 or UTF-16, BOM accepted); throws with the one-line reason for a binary file. */
export function readTranscriptFile(path: string): string {
  const r = decodeTranscript(readFileSync(path));
  if (!r.ok) throw new Error(r.reason);
  return r.text;
}

/** Runs the command on `argv` (the arguments after the command name) without touching the process. */
export function runCheck(argv: readonly string[], readFile: (path: string) => string = readTranscriptFile): CheckCliResult {
  const args = parseArgs(argv);
  if ('code' in args) return args;
  return checkWhole(args, readFile);
}

/** The command line read, or the result of a bad one (exit 2, the usage). */
function parseArgs(argv: readonly string[]): CheckArgs | CheckCliResult {
  let file: string | null = null;
  let text = false;
  let allowanceMs: number | undefined;
  let maxMs: number | undefined;
  let revision: Revision | undefined;
  let format: TranscriptFormat | undefined;
  const bad = (why: string): CheckCliResult => ({ code: 2, stdout: '', stderr: `${why}\n${USAGE}\n` });
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--text') text = true;
    else if (a === '--allowance-ms' || a === '--max-ms') {
      const v = nonNegativeInt(a, argv[++i]);
      if (typeof v === 'string') return bad(v);
      if (a === '--allowance-ms') allowanceMs = v;
      else maxMs = v;
    } else if (a === '--revision') {
      const v = argv[++i];
      if (!(REVISIONS as readonly string[]).includes(v)) return bad(`--revision: must be one of ${REVISIONS.join(', ')}, got ${JSON.stringify(v ?? null)}`);
      revision = v as Revision;
    } else if (a === '--format') {
      const v = argv[++i];
      if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(v)) return bad(`--format: must be one of ${TRANSCRIPT_FORMATS.join(', ')}, got ${JSON.stringify(v ?? null)}`);
      format = v as TranscriptFormat;
    } else if (a.startsWith('--')) return bad(`unknown option ${a}`);
    else if (file === null) file = a;
    else return bad(`one FILE only (got ${JSON.stringify(file)} and ${JSON.stringify(a)})`);
  }
  if (file === null) return bad('FILE: missing — give the transcript to check');
  return { file, text, ...(allowanceMs !== undefined ? { allowanceMs } : {}), ...(maxMs !== undefined ? { maxMs } : {}), ...(revision ? { revision } : {}), ...(format ? { format } : {}) };
}

/** The whole-file check: import the text, check it, print. */
function checkWhole({ file, text, allowanceMs, maxMs, revision, format }: CheckArgs, readFile: (path: string) => string): CheckCliResult {
  let body: string;
  try {
    body = readFile(file);
  } catch (err) {
    return { code: 1, stdout: '', stderr: `${file}: ${(err as NodeJS.ErrnoException).code ? `cannot read — ${(err as NodeJS.ErrnoException).code}` : (err as Error).message}\n` };
  }
  const imported = importTranscript(body, { ...(format ? { format } : {}), ...(revision ? { revision } : {}) });
  if (!imported.ok) return { code: 1, stdout: '', stderr: `${file}: ${scenarioHint(body) ?? imported.reason}\n` };
  const t = imported.transcript;
  const report = checkTranscript(t, { ...(allowanceMs !== undefined ? { allowanceMs } : {}), ...(maxMs !== undefined ? { maxMs } : {}) });
  const code = report.clean ? 0 : 3;
  if (text) return { code, stdout: textSummary(file, t, report), stderr: '' };
  const doc = {
    file,
    format: t.format,
    formatName: t.formatName,
    revision: report.revision,
    revisionSource: t.revisionSource,
    revisionNote: report.revisionNote,
    options: report.options,
    messages: t.messageIndices.length,
    lines: t.lineCount,
    skipped: t.skipped,
    outOfOrder: t.outOfOrder,
    counts: report.counts,
    clean: report.clean,
    findings: report.findings.map((f) => ({ ...f, lines: f.entries.map((i) => t.entries[i].line) })),
  };
  return { code, stdout: `${JSON.stringify(doc, null, 2)}\n`, stderr: '' };
}

/**
 * The `check` command: runs `runCheck(argv)`, writes its stdout and stderr to the process's, and
 * resolves to the exit code (0 clean, 3 a rule broken, 1 unreadable input, 2 bad command line).
 * The one CLI entry calls it as `process.exitCode = await checkCommand(argv)`.
 */
export async function checkCommand(argv: string[]): Promise<number> {
  const r = await runCheckStreaming(argv);
  if (r.stdout) process.stdout.write(printable(r.stdout));
  if (r.stderr) process.stderr.write(printable(r.stderr));
  return r.code;
}

/**
 * The command as the CLI runs it: the streaming check (`checkStream.ts`: one pass, memory bounded
 * by the calls still open) for the line formats, the whole-file import for the others or when the
 * stream cannot be read in one pass; the same output either way.
 */
export async function runCheckStreaming(argv: readonly string[]): Promise<CheckCliResult> {
  const args = parseArgs(argv);
  if ('code' in args) return args;
  let streamed: Awaited<ReturnType<typeof streamCheck>>;
  try {
    streamed = await streamCheck(args.file, args);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { code: 1, stdout: '', stderr: `${args.file}: ${code ? `cannot read — ${code}` : (err as Error).message}\n` };
  }
  if ('error' in streamed) return { code: 1, stdout: '', stderr: `${args.file}: ${streamed.error}\n` };
  if ('fallback' in streamed) return checkWhole(args, readTranscriptFile);
  const { report } = streamed;
  const code = report.clean ? 0 : 3;
  const info = { formatName: streamed.formatName, messages: streamed.messages, skipped: streamed.skipped, outOfOrder: { count: 0, firstLine: null }, ...(streamed.timeAssumption ? { timeAssumption: streamed.timeAssumption } : {}) };
  if (args.text) return { code, stdout: summary(args.file, info, report), stderr: '' };
  const doc = {
    file: args.file,
    format: streamed.format,
    formatName: streamed.formatName,
    revision: report.revision,
    revisionSource: streamed.revisionSource,
    revisionNote: report.revisionNote,
    options: report.options,
    messages: streamed.messages,
    lines: streamed.lineCount,
    skipped: streamed.skipped,
    outOfOrder: info.outOfOrder,
    counts: report.counts,
    clean: report.clean,
    findings: report.findings.map((f, i) => ({ ...f, lines: streamed.findingLines[i] })),
  };
  return { code, stdout: `${JSON.stringify(doc, null, 2)}\n`, stderr: '' };
}

/** When `text` is a lab scenario file rather than a transcript, the one line that says so and what to run instead. */
export function scenarioHint(text: string): string | null {
  try {
    const value = JSON.parse(text) as { lab?: unknown; events?: unknown };
    if (value !== null && typeof value === 'object' && typeof value.lab === 'string' && Array.isArray(value.events)) {
      return `this is a ${value.lab} scenario, not a transcript — replay it with npm run replay -- FILE (check reads recorded MCP traffic; see "Bring your own traffic" in the README)`;
    }
  } catch {
    // not JSON: not a scenario either
  }
  return null;
}
