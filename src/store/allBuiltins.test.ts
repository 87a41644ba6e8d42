import { describe, expect, it } from 'vitest';
import { LAB_IDS } from '../sim/labIds';
import { allBuiltins } from './allBuiltins';
import { builtinLedger } from './builtinLedger';
import { builtinRaces } from './builtinRaces';
import { builtinResilience } from './builtinResilience';
import { loadBuiltinFlow } from './flowStore';

describe('allBuiltins: every lab found by glob', () => {
  it("gives each lab the built-ins its own page loads (the same scenarios, by id), and a lab's folder is all it needs", () => {
    const all = allBuiltins();
    expect(Object.keys(all)).toEqual([...LAB_IDS]);
    const pages = { races: builtinRaces(), ledger: builtinLedger(), flow: loadBuiltinFlow(), resilience: builtinResilience() };
    for (const lab of LAB_IDS) {
      const byId = (xs: readonly { id: string }[]) => [...xs].sort((a, b) => (a.id < b.id ? -1 : 1));
      expect(pages[lab].errors).toEqual([]);
      expect(byId(all[lab])).toEqual(byId(pages[lab].scenarios));
    }
  });
});
