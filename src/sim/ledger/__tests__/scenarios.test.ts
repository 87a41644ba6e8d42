import { beforeAll, describe, expect, it } from 'vitest';
import { checkMessage } from '../../../wire/schemaCheck';
import { checkLedgerExpectation, replayLedger, withLedgerOverrides, type OpenDatabase } from '..';
import type { Json } from '../../types';
import type { Revision } from '../../mcp';
import { loadScenarios, opener, scenario } from './helpers';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

describe('ledger scenarios give the lesson\'s outcomes', () => {
  for (const s of loadScenarios()) {
    for (const e of s.expect ?? []) {
      it(`${s.id}: ${e.label}`, () => {
        const trace = replayLedger(withLedgerOverrides(s, e.overrides as Record<string, Json> | undefined), open);
        expect(checkLedgerExpectation(trace, e)).toEqual([]);
      });
    }
  }

  it('every scenario has an expectation for its buggy and its correct policy', () => {
    for (const s of loadScenarios()) {
      const violations = (s.expect ?? []).map((e) => (e.violates ?? []).length > 0);
      // A: the serial order holds under both policies (B shows the bug); C: the no-key lesson has no correct variant.
      if (s.id === 'A-race-two-connections' || s.id === 'C-no-key-retries') continue;
      expect(violations, s.id).toContain(true);
      expect(violations, s.id).toContain(false);
    }
  });

  it('checkLedgerExpectation reports a wrong number (it can fail)', () => {
    const s = scenario('E-dispatched-twice');
    const trace = replayLedger(s, open);
    expect(checkLedgerExpectation(trace, { label: 'wrong', summary: { charges: 2 }, violates: ['at-most-once'] })).toEqual([
      { field: 'summary.charges', expected: 2, actual: 1 },
      { field: 'violated invariants', expected: ['at-most-once'], actual: [] },
    ]);
  });

  it('emitted tools/call requests and results validate against the official MCP schemas (both revisions)', () => {
    let checked = 0;
    for (const revision of ['2026-07-28', '2025-11-25'] as Revision[]) {
      for (const s of loadScenarios()) {
        for (const e of s.expect ?? []) {
          const trace = replayLedger(withLedgerOverrides(withLedgerOverrides(s, e.overrides as Record<string, Json> | undefined), { revision }), open);
          for (const w of trace.effects) {
            const check = checkMessage(revision, w.message as Json, w.from === 'server' ? 'tools/call' : undefined);
            expect(check.errors, JSON.stringify(w.message)).toEqual([]);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  }, 300_000);

  it('a call answered before its deadline cancels its timeout; a slow one times out and its late response is lost', () => {
    const trace = replayLedger(scenario('F-lost-response'), open);
    const timeouts = trace.steps.filter((s) => s.entry.kind === 'timeout').map((s) => [s.at, s.entry.label]);
    expect(timeouts).toEqual([[1000, 'timeout 1']]);
    const lost = trace.effects.filter((e) => e.from === 'server' && e.arrivesAt === undefined).map((e) => [e.at, e.requestKey]);
    expect(lost).toEqual([[3000, '1']]);
  });

  it('is deterministic: the same scenario gives the same trace', () => {
    const s = scenario('F-lost-response');
    const a = replayLedger(s, open);
    const b = replayLedger(s, open);
    expect(JSON.stringify(b.steps.map((x) => [x.at, x.why, x.state.tables]))).toBe(JSON.stringify(a.steps.map((x) => [x.at, x.why, x.state.tables])));
  });
});
