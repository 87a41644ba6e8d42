import { describe, expect, it } from 'vitest';
import type { Scenario } from '../sim/types';
import { builtinRaces } from './builtinRaces';
import { createLabStore, linkParses, storeFromLink } from './labStore';
import { racesSpec } from './racesStore';
import { encodeLink } from './labLink';

const { scenarios: builtins } = builtinRaces();

/** The races store spec with a parser that "loads" when the test says (`release`). */
function lazySpec() {
  const spec = racesSpec(builtins);
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => (release = resolve));
  let ready = false;
  void loaded.then(() => (ready = true));
  let parses = 0;
  const definition = {
    ...spec.definition,
    parse: (value: unknown) => {
      if (!ready) throw new Error('parsed before the parser loaded');
      parses++;
      return spec.definition.parse(value);
    },
    parserReady: () => (ready ? null : loaded),
  };
  return { spec: { ...spec, definition }, release: async () => (release(), await loaded), parses: () => parses };
}

describe('a page store whose parser loads lazily', () => {
  it('a drag and a nudge of a built-in never parse', () => {
    const { spec, parses } = lazySpec();
    const store = createLabStore(spec);
    const first = store.getState().scenario.events[0];
    store.getState().moveEvent(first.id, first.at + 5);
    store.getState().nudgeEvent(first.id, 1, 0);
    expect(store.getState().scenario.events[0].at).toBe(first.at + 6);
    expect(parses()).toBe(0);
  });

  it('a refused setting waits for the parser and shows the same message as a loaded store', async () => {
    const eager = createLabStore(racesSpec(builtins));
    eager.getState().setConfig({ latencyMs: { clientToServer: -1 } });
    const expected = eager.getState().error;
    expect(expected?.errors[0]).toMatch(/config\.latencyMs\.clientToServer/);

    const { spec, release } = lazySpec();
    const store = createLabStore(spec);
    store.getState().setConfig({ latencyMs: { clientToServer: -1 } });
    expect(store.getState().error).toBeNull();
    await release();
    expect(store.getState().error).toEqual(expected);
  });

  it('a paste waits for the parser, then loads; bad text is refused with the same messages', async () => {
    const { spec, release } = lazySpec();
    const store = createLabStore(spec);
    const b = builtins[1];
    expect(store.getState().importText(JSON.stringify(b), 'The pasted scenario')).toBe(false);
    store.getState().importText('{"format":1,"lab":"races","id":"x","title":"t","config":{},"events":[{"id":"a","at":-1}]}', 'The pasted scenario');
    expect(store.getState().scenario.id).toBe(builtins[0].id);
    await release();
    const eager = createLabStore(racesSpec(builtins));
    eager.getState().importText('{"format":1,"lab":"races","id":"x","title":"t","config":{},"events":[{"id":"a","at":-1}]}', 'The pasted scenario');
    expect(store.getState().error).toEqual(eager.getState().error);
    expect(store.getState().scenario).toEqual(b);
  });

  it('a link with a scenario or settings parses; a built-in link (and its playhead) does not', async () => {
    const spec = racesSpec(builtins);
    const edited: Scenario = { ...builtins[0], title: 'Edited' };
    expect(linkParses(spec, `#/races/${builtins[1].id}`)).toBe(false);
    expect(linkParses(spec, `#/races/${builtins[1].id}?t=20`)).toBe(false);
    expect(linkParses(spec, `#/races/${builtins[1].id}?transport=streamable-http`)).toBe(true);
    expect(linkParses(spec, encodeLink('races', edited, builtins, racesSpec(builtins).link))).toBe(true);

    // Opened before the parser loaded, the link is followed once it has.
    const { spec: lazy, release } = lazySpec();
    const store = storeFromLink(lazy, encodeLink('races', edited, builtins, racesSpec(builtins).link));
    await release();
    expect(store.getState().scenario.title).toBe('Edited');
  });
});
