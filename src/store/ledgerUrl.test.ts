import { describe, expect, it } from 'vitest';
import { loadScenarios } from '../sim/ledger/__tests__/helpers';
import { decodeLedgerHash, encodeLedgerHash } from './ledgerUrl';

describe('ledger links', () => {
  const builtins = loadScenarios();
  it('a built-in is its id; an edited scenario travels whole and round-trips', () => {
    expect(encodeLedgerHash(builtins[1], builtins)).toBe('#/ledger/B-race-interleaved');
    expect(decodeLedgerHash('#/ledger/B-race-interleaved', builtins)).toEqual({ ok: true, scenario: builtins[1] });
    expect(decodeLedgerHash('#/ledger', builtins)).toEqual({ ok: true, scenario: builtins[0] });
    const edited = { ...builtins[0], events: builtins[0].events.map((e) => (e.id === 'B-read' ? { ...e, at: 20 } : e)) };
    const hash = encodeLedgerHash(edited, builtins);
    expect(hash.startsWith('#/ledger?scenario=')).toBe(true);
    expect(decodeLedgerHash(hash, builtins)).toEqual({ ok: true, scenario: edited });
  });
  it('bad links name the problem', () => {
    expect(decodeLedgerHash('#/ledger/nope', builtins)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "nope"; known: A-race/)] });
    // One rule for links: the scenario the path names is kept; the extra parameter is ignored (and reported by the page).
    expect(decodeLedgerHash('#/ledger/B-race-interleaved?scenario=abc', builtins)).toEqual({ ok: true, scenario: builtins[1] });
    expect(decodeLedgerHash('#/ledger?scenario=%%%', builtins)).toEqual({ ok: false, errors: ['scenario (in the link): not valid base64url-encoded UTF-8 text — the link may be cut short; copy it again'] });
    const r = decodeLedgerHash(`#/ledger?scenario=${Buffer.from(JSON.stringify({ format: 1, lab: 'ledger', id: 'x', title: 'x', config: {}, events: [{ id: 'a', at: 1.5, actor: 'db', kind: 'read', conn: 'A' }] })).toString('base64url')}`, builtins);
    expect(r).toEqual({ ok: false, errors: ['events[0].at: must be an integer number of milliseconds — give an integer'] });
  });
});
