import { describe, expect, it } from 'vitest';
import { racesPolicySchema, replayRaces, type RacesPolicy } from '../sim/races';
import { builtinRaces } from './builtinRaces';
import { policyEffects, POLICY_PROBE_MAX_EVENTS } from './policyEffect';

const { scenarios } = builtinRaces();
const keys = Object.keys(racesPolicySchema.shape) as (keyof RacesPolicy)[];
const byId = (id: string) => scenarios.find((s) => s.id === id)!;

describe('which broken-policy switches change the scenario as it stands', () => {
  it('lesson A over stdio: the server answering after a cancel matters, the HTTP-only switch does not', () => {
    const a = byId('A-cancel-then-complete');
    expect((a.config as { transport: string }).transport).toBe('stdio');
    const effects = policyEffects(a, replayRaces(a), keys)!;
    expect(effects.respondAfterCancel).toBe(true);
    expect(effects.httpPostsCancel).toBe(false);
  });

  it('over Streamable HTTP the HTTP-only switch does change lesson D', () => {
    const d = byId('D-http-stream-close');
    expect(policyEffects(d, replayRaces(d), ['httpPostsCancel'])).toEqual({ httpPostsCancel: true });
  });

  it('does not probe big scenarios', () => {
    const a = byId('A-cancel-then-complete');
    const big = { ...a, events: Array.from({ length: POLICY_PROBE_MAX_EVENTS + 1 }, (_, i) => ({ ...a.events[0], id: `e${i}` })) };
    expect(policyEffects(big, replayRaces(a), keys)).toBe(null);
  });
});
