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
  it('offers the lab policy, the TypeScript SDK v1 and the TypeScript SDK v2, in that order', () => {
    expect(RACES_CLIENT_PROFILE_OPTIONS).toEqual([
      { value: 'lab', label: 'lab policy (spec)' },
      { value: 'typescript-sdk-v1', label: 'TypeScript SDK v1' },
      { value: 'typescript-sdk-v2', label: 'TypeScript SDK v2' },
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
    expect(JSON.stringify(store.getState().error)).toMatch(/client\.profile: must be one of lab, typescript-sdk-v1, typescript-sdk-v2/);
  });
  it('S1 under the TypeScript SDK v2 (2026-07-28): rejected at 180 000 ms by the maximum and no cancel is ever sent (sdk.v2-no-cancel-after-maximum); the link keeps the profile and accepts client.profile=sdk-v2', () => {
    const store = make('S1-sdk-v1-maximum-late');
    store.getState().setConfig({ revision: '2026-07-28', client: { profile: 'typescript-sdk-v2' } });
    expect(profile(store)).toBe('typescript-sdk-v2');
    expect(first(store)).toMatchObject({ state: 'timeout-max', atMs: 180_000, rule: 'sdk.v2-no-cancel-after-maximum' });
    const cancels = () => store.getState().trace.effects.filter((e) => (e.message as { method?: string }).method === 'notifications/cancelled');
    expect(cancels()).toEqual([]);
    expect(sdkBehavioursIn(store.getState().trace).map((b) => [b.id, b.atMs])).toEqual([['sdk.v2-no-cancel-after-maximum', [180_000]]]);
    const address = store.getState().address();
    expect(address).toContain('client.profile=typescript-sdk-v2');
    expect(racesClientProfile(selectConfig(racesStoreFromLink(address, builtins).getState()))).toBe('typescript-sdk-v2');
    // the short form a person types in a link
    const short = racesStoreFromLink('#/races/S1-sdk-v1-maximum-late?revision=2026-07-28&client.profile=sdk-v2', builtins);
    expect(racesClientProfile(selectConfig(short.getState()))).toBe('typescript-sdk-v2');
    expect(short.getState().trace.outcome.requests[0]).toMatchObject({ state: 'timeout-max', rule: 'sdk.v2-no-cancel-after-maximum' });
    expect(racesClientProfile(selectConfig(racesStoreFromLink('#/races/F2-progress-forever?client.profile=sdk-v1', builtins).getState()))).toBe('typescript-sdk-v1');
  });
});
