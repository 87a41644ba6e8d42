import { describe, expect, it } from 'vitest';
import { withChaosSeed } from './chaosLink';
import { decodeLink } from './labLink';
import { builtinResilience } from './builtinResilience';
import { parseScenario } from '../sim/scenario';
import { LAB_SCHEMAS } from '../sim/labs';
import { readChaosParam } from '../sim/chaos/link';

describe('Chaos panel: the seed in the share link', () => {
  it('adds chaos=<seed> to an address, replacing an old one, keeping the other parameters', () => {
    expect(withChaosSeed('#/resilience/S1-three-layers', 19)).toBe('#/resilience/S1-three-layers?chaos=19');
    expect(withChaosSeed('#/races/B?t=120&chaos=3', 19)).toBe('#/races/B?t=120&chaos=19');
    expect(readChaosParam(withChaosSeed('#/ledger?scenario=d1.abc', 4294967295).split('?')[1])).toBe(4294967295);
  });

  it('the link decoder leaves chaos=<seed> to the panel: no "(ignored)" warning', () => {
    const { scenarios } = builtinResilience();
    const parse = (v: unknown) => parseScenario(v, 'resilience', LAB_SCHEMAS.resilience);
    const d = decodeLink('resilience', '#/resilience/S1-three-layers?chaos=19', scenarios, parse);
    expect(d).toMatchObject({ kind: 'ok', builtinId: 'S1-three-layers', warnings: [] });
    const other = decodeLink('resilience', '#/resilience/S1-three-layers?nope=1', scenarios, parse);
    expect(other.kind === 'ok' && other.warnings.length).toBe(1);
  });
});
