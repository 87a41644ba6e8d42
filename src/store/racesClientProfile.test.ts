import { describe, expect, it } from 'vitest';
import { builtinRaces } from './builtinRaces';
import { createRacesStore, racesStoreFromLink, selectConfig } from './racesStore';
import { RACES_CLIENT_PROFILE_OPTIONS, racesClientProfile, sdkBehavioursIn } from './racesClientProfile';

const { scenarios: builtins } = builtinRaces();
const make = (id: string) => {
  const store = createRacesStore({ builtins });
  store.getState().loadBuiltin(id);
  return store;
};
const profile = (store: ReturnType<typeof make>) => racesClientProfile(selectConfig(store.getState()));
const first = (store: ReturnType<typeof make>) => store.getState().trace.outcome.requests[0];

describe('races client profile setting (issue 11: the SDK v1 profile gets a picker)', () => {
  it('offers the lab policy and the TypeScript SDK v1, in that order', () => {
    expect(RACES_CLIENT_PROFILE_OPTIONS).toEqual([
      { value: 'lab', label: 'lab policy (spec)' },
      { value: 'typescript-sdk-v1', label: 'TypeScript SDK v1' },
    ]);
    expect(profile(make('A-cancel-then-complete'))).toBe('lab'); // client omitted: the lab
  });

  it('S1: picking the lab policy sends the cancel at the maximum (180 000 ms) instead of 220 000 ms; undo restores the SDK and its named behaviour', () => {
    const store = make('S1-sdk-v1-maximum-late');
    expect(profile(store)).toBe('typescript-sdk-v1');
    expect(first(store)).toMatchObject({ state: 'timeout-max', atMs: 180_000, rule: 'sdk.no-cancel-at-maximum' });
    const sdk = sdkBehavioursIn(store.getState().trace);
    // cited where the call is rejected without a cancel (180 000 ms) and where the old idle timer finally sends it (220 000 ms)
    expect(sdk.map((b) => [b.id, b.atMs])).toEqual([['sdk.no-cancel-at-maximum', [180_000, 220_000]]]);
    expect(sdk[0].title).toBe('SDK v1: no cancel when the maximum trips; it waits for the old idle timer');
    const cancelAt = () => store.getState().trace.effects.find((e) => (e.message as { method?: string }).method === 'notifications/cancelled')?.at;
    expect(cancelAt()).toBe(220_000);

    store.getState().setConfig({ client: { profile: 'lab' } });
    expect(profile(store)).toBe('lab');
    expect(first(store)).toMatchObject({ state: 'timeout-max', atMs: 180_000, rule: 'timeout.max' });
    expect(cancelAt()).toBe(180_000);
    expect(sdkBehavioursIn(store.getState().trace)).toEqual([]);
    // kept in the share link, and the link reopens it
    const address = store.getState().address();
    expect(address).toContain('client.profile=lab');
    const reopened = racesStoreFromLink(address, builtins);
    expect(racesClientProfile(selectConfig(reopened.getState()))).toBe('lab');

    store.getState().undo();
    expect(profile(store)).toBe('typescript-sdk-v1');
    expect(cancelAt()).toBe(220_000);
    expect(store.getState().address()).not.toContain('client.profile');
  });

  it('S2: under the SDK the cancel for request id 0 is ignored (typescript-sdk#2283), where it lands at 110 ms; under the lab both handlers stop', () => {
    const store = make('S2-sdk-v1-cancel-id-zero');
    expect(sdkBehavioursIn(store.getState().trace).map((b) => [b.id, b.atMs, b.thread])).toEqual([['sdk.cancel-id-zero', [110], 'modelcontextprotocol/typescript-sdk#2283']]);
    const server0 = () => store.getState().trace.outcome.requests.find((r) => r.key === '0')!.serverState;
    expect(server0()).not.toBe('cancelled');
    store.getState().setConfig({ client: { profile: 'lab' } });
    expect(server0()).toBe('cancelled');
  });

  it('a bad profile is refused by name and the setting is kept', () => {
    const store = make('S1-sdk-v1-maximum-late');
    store.getState().setConfig({ client: { profile: 'python-sdk' } });
    expect(profile(store)).toBe('typescript-sdk-v1');
    expect(JSON.stringify(store.getState().error)).toMatch(/client\.profile: must be one of lab, typescript-sdk-v1/);
  });
});
