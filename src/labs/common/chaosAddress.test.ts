import { describe, expect, it } from 'vitest';
import { chaosAddress, forgetChaosSeed, showChaosSeed, withoutPlayheadOrSeed } from './chaosAddress';

describe('the address while a chaos seed is shown', () => {
  it('is the base scenario plus chaos=<seed> (no playhead, no older seed) only while the faulted scenario is on screen', () => {
    const faulted = { id: 'faulted' };
    showChaosSeed('races', faulted, '#/races/B-complete-then-cancel?t=120&chaos=3', 19);
    expect(chaosAddress('races', faulted)).toBe('#/races/B-complete-then-cancel?chaos=19');
    expect(chaosAddress('races', { id: 'faulted' })).toBeNull(); // an edited copy: the store's address applies
    expect(chaosAddress('ledger', faulted)).toBeNull();
    forgetChaosSeed('races');
    expect(chaosAddress('races', faulted)).toBeNull();
  });

  it('strips t= and chaos= but keeps the scenario', () => {
    expect(withoutPlayheadOrSeed('#/ledger?scenario=d1.abc&t=40&chaos=2')).toBe('#/ledger?scenario=d1.abc');
    expect(withoutPlayheadOrSeed('#/flow/X?t=0')).toBe('#/flow/X');
    expect(withoutPlayheadOrSeed('#/flow/X')).toBe('#/flow/X');
  });
});
