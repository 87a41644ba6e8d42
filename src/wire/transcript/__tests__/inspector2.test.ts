import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTranscript } from '../checks';
import { exportTranscript, formatKeeps, transcriptRecords } from '../export';
import { importTranscript } from '../parse';
import { TRANSCRIPT_FORMATS, type MessageEntry, type Transcript } from '../types';

/** Written by scripts/inspector-fixture.mjs, which runs the Inspector 2.12.0's own MessageLogState and entry-building code. */
const FIXTURE = readFileSync(path.join(import.meta.dirname, 'fixtures/inspector-2.12-export.json'), 'utf8');

const ok = (text: string): Transcript => {
  const r = importTranscript(text);
  if (!r.ok) throw new Error(r.reason);
  return r.transcript;
};

describe('the MCP Inspector 2.x protocol export, as Inspector writes it', () => {
  it('is detected, its folded responses observed at timestamp + duration, and the unfolded "2" answer checked', () => {
    const t = ok(FIXTURE);
    expect(t.format).toBe('inspector-v2');
    expect(t.revision).toBe('2025-11-25');
    const messages = t.entries.filter((e): e is MessageEntry => e.type === 'message');
    expect(messages.map((m) => [m.atMs, m.direction, m.kind])).toEqual([
      [0, 'c2s', 'request'],
      [12, 's2c', 'response'],
      [20, 'c2s', 'notification'],
      [100, 'c2s', 'request'],
      [150, 's2c', 'notification'],
      [400, 's2c', 'response'],
      [500, 'c2s', 'request'],
      [800, 's2c', 'response'],
    ]);
    const report = checkTranscript(t);
    expect(report.findings.map((f) => [f.check, f.atMs])).toEqual([['response-id-type', 800]]);
  });

  it('round trip: exported in every format and imported again, each keeps what it can carry, unchanged', () => {
    const t = ok(FIXTURE);
    const records = transcriptRecords(t);
    for (const format of TRANSCRIPT_FORMATS) {
      const again = ok(exportTranscript(records, format, { originIso: t.originIso ?? undefined }));
      const kept = records.filter((r) => formatKeeps(format, r));
      // A Claude Desktop log is a stdio server's log: it has no transport field, so "unknown" reads back as stdio.
      const msgs = (list: typeof records) => list.filter((r) => r.type === 'message').map((r) => (format === 'claude-desktop-log' ? { ...r, transport: 'stdio' } : r));
      expect(msgs(transcriptRecords(again))).toEqual(msgs(kept));
    }
  });
});
