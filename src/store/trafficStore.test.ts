import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callSpans, checkTranscript, importTranscript } from '../wire/transcript';
import { decodeLink, linkCodecReady } from './labLink';
import { builtinRaces } from './builtinRaces';
import { racesDefinition } from '../sim/races/definition';
import { checkOptionsOf, createTrafficStore, exportLoaded, parseMsInput, scenarioLinkOf, shownEntries } from './trafficStore';

const sample = (f: string) => readFileSync(`public/transcripts/${f}`, 'utf8');

function load(store: ReturnType<typeof createTrafficStore>, text: string, source = 'The sample') {
  const result = importTranscript(text);
  const report = result.ok ? checkTranscript(result.transcript) : null;
  store.getState().finishImport(source, result, report, result.ok ? callSpans(result.transcript) : []);
  return result;
}

describe('traffic store', () => {
  it('a good import replaces the transcript; nothing usable keeps it and says why in one line', () => {
    const store = createTrafficStore();
    load(store, sample('inspector-v2/inspector-responds-after-cancel.json'), 'The sample A');
    const s = store.getState();
    expect(s.transcript?.format).toBe('inspector-v2');
    expect(s.report?.findings.map((f) => f.check)).toContain('late-after-cancel');
    expect(s.loadCount).toBe(1);
    expect(s.error).toBeNull();
    const before = s.transcript;
    load(store, 'hello\nnot a transcript', 'The pasted text');
    const t = store.getState();
    expect(t.transcript).toBe(before);
    expect(t.loadCount).toBe(1);
    expect(t.error?.title).toBe('The pasted text was not loaded; the previous transcript is kept');
    expect(t.error?.errors[0]).toMatch(/^\(transcript\): /);
  });

  it('a link parameter is reported as the labs report one (unknown link parameter — ignored), the transcript kept', () => {
    const store = createTrafficStore();
    expect(store.getState().followLink('#/traffic')).toBe(false);
    expect(store.getState().followLink('#/races/A-cancel-then-complete?x=1')).toBe(false);
    expect(store.getState().error).toBeNull();
    expect(store.getState().followLink('#/traffic/x')).toBe(true);
    expect(store.getState().error?.errors).toEqual(['scenario id (in the link): the Traffic page has no scenarios of its own, got "x" — ignored; import a transcript or pick a sample']);
    expect(store.getState().followLink('#/traffic?foo=1&bar')).toBe(true);
    expect(store.getState().error).toEqual({ title: 'Parts of the link are not valid; showing the Traffic page', errors: ['foo: unknown link parameter — ignored', 'bar: unknown link parameter — ignored'] });
    load(store, sample('inspector-v2/inspector-responds-after-cancel.json'));
    const before = store.getState().transcript;
    expect(store.getState().followLink('#/traffic/A-cancel-then-complete?foo=1')).toBe(true);
    expect(store.getState().transcript).toBe(before);
    expect(store.getState().error).toEqual({
      title: 'Parts of the link are not valid; showing the Traffic page with the loaded transcript',
      errors: ['scenario id (in the link): the Traffic page has no scenarios of its own, got "A-cancel-then-complete" — ignored; the transcript is kept', 'foo: unknown link parameter — ignored; the transcript is kept'],
    });
  });

  it('cancel keeps the transcript; with nothing loaded it says so', () => {
    const store = createTrafficStore();
    store.getState().begin({ stage: 'parsing', lines: 100_000, source: 'The file big.log' });
    store.getState().cancel();
    expect(store.getState().progress).toBeNull();
    expect(store.getState().error?.title).toBe('The file big.log was not loaded; nothing is loaded');
    expect(store.getState().error?.errors).toEqual(['(transcript): cancelled — import it again to load it']);
  });

  it('a finding selects the entry at its time; next/previous step and wrap', () => {
    const store = createTrafficStore();
    load(store, sample('jsonrpc-jsonl/jsonrpc-fifty-timeouts-no-cancel.jsonl'));
    const { report, transcript } = store.getState();
    expect(report!.findings.length).toBeGreaterThan(1);
    store.getState().stepFinding('next');
    expect(store.getState().currentFinding).toBe(0);
    const f0 = report!.findings[0];
    const sel = store.getState().selectedEntry!;
    expect(f0.entries).toContain(sel);
    expect(transcript!.entries[sel].atMs).toBe(f0.atMs);
    store.getState().stepFinding('next');
    expect(store.getState().currentFinding).toBe(1);
    store.getState().stepFinding('previous');
    store.getState().stepFinding('previous');
    expect(store.getState().currentFinding).toBe(report!.findings.length - 1);
  });

  it('filters by id, method and tool; seek selects the nearest shown message', () => {
    const store = createTrafficStore();
    load(store, sample('claude-desktop/mcp-server-lab-complete-then-cancel.log'));
    const t = store.getState().transcript!;
    expect(shownEntries(t, { id: '', method: '', tool: '' })).toHaveLength(t.entries.length);
    expect(shownEntries(t, { id: '1', method: '', tool: '' })).toHaveLength(3);
    expect(shownEntries(t, { id: '2', method: '', tool: '' })).toHaveLength(0);
    expect(shownEntries(t, { id: '', method: 'tools/call', tool: 'send_email' })).toHaveLength(3);
    expect(shownEntries(t, { id: '', method: '', tool: 'other' })).toHaveLength(0);
    // With the store's spans: the same entries as filterEntries, for every filter of the sample.
    const spans = store.getState().spans;
    for (const f of [{ id: '1', method: '', tool: '' }, { id: '', method: 'notifications/cancelled', tool: '' }, { id: '', method: 'tools/call', tool: '' }, { id: '', method: '', tool: 'send_email' }, { id: '"1"', method: '', tool: '' }]) {
      expect(shownEntries(t, f, spans)).toEqual(shownEntries(t, f));
    }
    const big = importTranscript(sample('jsonrpc-jsonl/jsonrpc-fifty-timeouts-no-cancel.jsonl'));
    if (!big.ok) throw new Error(big.reason);
    for (const f of [{ id: '7', method: '', tool: '' }, { id: '', method: 'tools/call', tool: 'crawl_site' }, { id: '', method: 'initialize', tool: '' }]) {
      expect(shownEntries(big.transcript, f, callSpans(big.transcript))).toEqual(shownEntries(big.transcript, f));
    }
    store.getState().seek(418);
    expect(store.getState().selectedEntry).toBe(t.entries.findIndex((e) => e.atMs === 420));
    expect(store.getState().cursorMs).toBe(418);
  });

  it('check options: validated with the field named and what to do', () => {
    expect(parseMsInput('allowanceMs', '1000', false)).toEqual({ ok: true, value: 1000 });
    expect(parseMsInput('allowanceMs', '', false)).toEqual({ ok: false, error: 'allowanceMs: is empty — type a whole number of milliseconds, e.g. 1000' });
    expect(parseMsInput('allowanceMs', '1.5', false)).toEqual({ ok: false, error: 'allowanceMs: "1.5" is not a whole number of milliseconds — type digits only, e.g. 1000' });
    expect(parseMsInput('maxMs', '', true)).toEqual({ ok: true, value: null });
    expect(parseMsInput('maxMs', '0', true).ok).toBe(false);
    expect(parseMsInput('maxMs', '86400001', true)).toEqual({ ok: false, error: 'maxMs: 86400001 ms is more than one day (86400000 ms) — type a smaller number' });
    expect(checkOptionsOf('250', '180000')).toEqual({ options: { allowanceMs: 250, maxMs: 180000 }, fieldErrors: {} });
    const store = createTrafficStore();
    expect(store.getState().setAllowanceText('x')).toBeNull();
    expect(store.getState().fieldErrors.allowanceMs).toMatch(/^allowanceMs: "x" is not a whole number/);
    expect(store.getState().setAllowanceText('500')).toEqual({ allowanceMs: 500, maxMs: null });
    expect(store.getState().fieldErrors).toEqual({});
  });

  it('exports in each format, redacted on request, and the export imports back to the same messages', () => {
    const store = createTrafficStore();
    load(store, sample('claude-desktop/mcp-server-lab-late-result.log'));
    const t = store.getState().transcript!;
    for (const format of ['claude-desktop-log', 'inspector-v2', 'jsonrpc-jsonl', 'capture-jsonl'] as const) {
      const { filename, text } = exportLoaded(t, format, false, 'late');
      expect(filename).toMatch(format === 'claude-desktop-log' ? /^mcp-server-late\.log$/ : new RegExp(`^late-${format}\\.(json|jsonl)$`));
      const back = importTranscript(text);
      expect(back.ok && back.transcript.format).toBe(format);
      expect(back.ok && back.transcript.messageIndices.length).toBe(t.messageIndices.length);
    }
    const red = exportLoaded(t, 'jsonrpc-jsonl', true, 'late');
    expect(red.filename).toBe('late-jsonrpc-jsonl-redacted.jsonl');
    expect(red.text).not.toContain('1,204 rows');
    expect(red.text).toContain('"id":42');
  });

  it('open as a scenario: a races link (shared codec) that decodes to the transcript’s times and ids', async () => {
    await linkCodecReady;
    const text = [
      '2026-01-01T00:00:00.000Z [demo] [info] Message from client: {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"q","arguments":{}}} { metadata: undefined }',
      '2026-01-01T00:00:00.300Z [demo] [info] Message from client: {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}} { metadata: undefined }',
      '2026-01-01T00:00:03.000Z [demo] [info] Message from server: {"jsonrpc":"2.0","id":7,"result":{"content":[]}} { metadata: undefined }',
    ].join('\n');
    const r = importTranscript(text);
    if (!r.ok) throw new Error(r.reason);
    const link = scenarioLinkOf(r.transcript, 7);
    if (!link.ok) throw new Error(link.errors.join('; '));
    expect(link.href).toMatch(/^#\/races\?scenario=/);
    const d = decodeLink('races', link.href, builtinRaces().scenarios, racesDefinition.parse, { configParams: true, playhead: true });
    if (d.kind !== 'ok') throw new Error(JSON.stringify(d));
    expect(d.scenario.events.map((e) => [e.kind, e.at, (e as { requestId?: unknown }).requestId])).toEqual([
      ['start', 0, 7],
      ['cancel', 300, 7],
      ['complete', 3000, 7],
    ]);
  });
});
