import { beforeAll, describe, expect, it } from 'vitest';
import { builtinRaces } from './builtinRaces';
import { builtinResilience } from './builtinResilience';
import { createFlowStore } from './flowStore';
import { drive } from './__tests__/labDriver';
import { decodeLink, decodeScenarioPayload, encodeLink, encodeScenarioPayload, linkCodecReady } from './labLink';
import { createRacesStore, racesStoreFromLink, selectOutcomeAt } from './racesStore';
import { importedOptionValues, pickerCurrent, selectRedoStep, selectUndoStep } from './labSelectors';
import { createResilienceStore } from './resilienceStore';
import { toBase64Url } from './linkText';
import { racesDefinition } from '../sim/races/definition';

const { scenarios: races } = builtinRaces();
const A = races.find((s) => s.id === 'A-cancel-then-complete')!;


// The link codec (fflate) is a lazy chunk in the page; the tests wait for it like the pages do.
beforeAll(() => linkCodecReady);

describe('one lab store for every lab (createLabStore)', () => {
  it('the same verbs drive races and resilience: load, drag (one undo step), undo/redo, link', () => {
    drive(createRacesStore({ builtins: races }))
      .load('A-cancel-then-complete')
      .expectOutcome({ requests: [{ state: 'cancelled' }] })
      .drag('cancel', 400, 550, 700)
      .expectOutcome({ requests: [{ state: 'completed' }] })
      .undo()
      .expectAt('cancel', 300)
      .redo()
      .expectAt('cancel', 700)
      .link('#/races/B-complete-then-cancel?bogus=1')
      .expectScenario('B-complete-then-cancel')
      .expectError(/^Parts of the link are not valid; showing the built-in "B/)
      .undo()
      .expectScenario('A-cancel-then-complete');
    const { scenarios } = builtinResilience();
    drive(createResilienceStore({ builtins: scenarios, initialId: 'S1-three-layers' }))
      .expectOutcome({ summary: { upstreamAttempts: 64 } })
      .set({ fixes: { retryAtOneLayerOnly: true } })
      .expectOutcome({ summary: { upstreamAttempts: 4 } })
      .set({ cancelPropagationMs: -5 })
      .expectError('That setting is not valid; the previous settings are kept')
      .set({ cancelPropagationMs: 0 })
      .expectError(null)
      .undo()
      .undo()
      .expectOutcome({ summary: { upstreamAttempts: 64 } });
  });

  it('a link with bad parameters says "ignored" once per parameter: the banner title does not repeat it (walkthrough)', () => {
    const banner = (e: { title: string; errors: string[] } | null) => [e?.title ?? '', ...(e?.errors ?? [])].join('\n');
    const count = (text: string) => text.match(/ignored/g)?.length ?? 0;
    const opened = racesStoreFromLink('#/races/B-complete-then-cancel?bogus=1', races).getState();
    expect(opened.error?.title).toBe(`Parts of the link are not valid; showing the built-in "${opened.scenario.title}" it names`);
    expect(count(banner(opened.error))).toBe(1);
    const two = racesStoreFromLink('#/races/B-complete-then-cancel?bogus=1&transport=pigeon', races).getState();
    expect(two.error?.errors).toHaveLength(2);
    expect(count(banner(two.error))).toBe(2);
    const followed = createResilienceStore({ builtins: builtinResilience().scenarios });
    followed.getState().followLink('#/resilience/B2-retry-composition?x=1');
    expect(count(banner(followed.getState().error))).toBe(1);
  });

  it('the picker names an imported retitled copy of a built-in by its own title, not the built-in (walkthrough)', () => {
    const store = createRacesStore({ builtins: races });
    expect(pickerCurrent(races, store.getState().scenario)).toEqual({ builtin: true, value: 'A-cancel-then-complete' });
    store.getState().nudgeEvent('cancel', 10, 0);
    expect(store.getState().scenario).not.toBe(A);
    expect(pickerCurrent(races, store.getState().scenario)).toEqual({ builtin: true, value: 'A-cancel-then-complete' });
    expect(store.getState().importText(JSON.stringify({ ...A, title: 'My copy of A' }), 'The file mine.json')).toBe(true);
    const s = store.getState();
    expect(s.scenario.id).toBe('A-cancel-then-complete');
    expect(pickerCurrent(s.builtins, s.scenario)).toEqual({ builtin: false, value: '(imported) A-cancel-then-complete', label: 'My copy of A (imported)' });
    expect(pickerCurrent(races, { id: 'mine', title: 'Mine' })).toEqual({ builtin: false, value: 'mine', label: 'Mine (imported)' });
  });

  it('a link names a mistyped setting and quotes a huge id in part (walkthrough)', () => {
    const prefixed = racesStoreFromLink('#/races/C-progress-idle-maximum?config.transport=carrier-pigeon', races).getState();
    expect(prefixed.scenario.id).toBe('C-progress-idle-maximum');
    expect(prefixed.error?.errors).toEqual(['config.transport: a setting in a link goes without "config." — write transport=carrier-pigeon (ignored)']);
    const id = 'x'.repeat(20_000);
    const huge = racesStoreFromLink(`#/races/${id}`, races).getState();
    const line = huge.error?.errors[0] ?? '';
    expect(line).toContain(`no built-in scenario is called "${'x'.repeat(80)}"… (20,000 characters); known: A-cancel-then-complete`);
    expect(line.length).toBeLessThan(1_000);
  });

  it('every import stays listed for the picker: picking a built-in loses none, picking it again loads it as imported (walkthrough)', () => {
    const store = createRacesStore({ builtins: races });
    const mine = { ...A, id: 'mine', title: 'Mine' };
    const copy = { ...A, title: 'My copy of A' };
    expect(store.getState().importText(JSON.stringify(mine))).toBe(true);
    expect(store.getState().importText(JSON.stringify(copy))).toBe(true);
    // The lesson's own file, imported as it is: the picker already lists it as a built-in.
    expect(store.getState().importText(JSON.stringify(A))).toBe(true);
    expect(store.getState().importedScenarios.map((s) => s.title)).toEqual(['Mine', 'My copy of A']);
    store.getState().loadBuiltin('B-complete-then-cancel');
    expect(store.getState().importedScenarios.map((s) => s.title)).toEqual(['Mine', 'My copy of A']);
    store.getState().loadImported(0);
    expect(store.getState().scenario.title).toBe('Mine');
    expect(store.getState().original.title).toBe('Mine');
    expect(selectUndoStep(store.getState())).toBe('switch to Mine (imported)');
    // Importing the same (id, title) again replaces the listed copy, and it moves last.
    const longer = { ...mine, events: mine.events.map((e) => ({ ...e, at: e.at + 5 })) };
    expect(store.getState().importText(JSON.stringify(longer))).toBe(true);
    expect(store.getState().importedScenarios.map((s) => s.title)).toEqual(['My copy of A', 'Mine']);
    expect(store.getState().importedScenarios[1].events[0].at).toBe(mine.events[0].at + 5);
    // A refused import lists nothing; an index not listed is refused with an error, the scenario kept.
    expect(store.getState().importText('{"format":1}')).toBe(false);
    expect(store.getState().importedScenarios).toHaveLength(2);
    const before = store.getState().scenario;
    store.getState().loadImported(2);
    expect(store.getState().scenario).toBe(before);
    expect(store.getState().error?.errors).toEqual(['imported scenario: there is no import number 3 — 2 scenarios were imported on this page']);
  });

  it('picker option values of imports: the value pickerCurrent gives, unless a built-in or an earlier import has it', () => {
    const mine = { id: 'mine', title: 'Mine' };
    const copyOfA = { id: 'A-cancel-then-complete', title: 'My copy of A' };
    const editedA = { id: 'A-cancel-then-complete', title: A.title };
    const values = importedOptionValues(races, [mine, copyOfA, editedA, { id: 'mine', title: 'Mine again' }]);
    expect(values).toEqual(['mine', '(imported) A-cancel-then-complete', 'imported:2', 'imported:3']);
    expect(new Set([...values, ...races.map((b) => b.id)]).size).toBe(values.length + races.length);
  });

  it('a scenario with no events is refused on the races page with a clear reason; the previous one stays', () => {
    drive(createRacesStore({ builtins: races }))
      .paste({ format: 1, lab: 'races', id: 'empty', title: 'Nothing', config: {}, events: [] })
      .expectScenario('A-cancel-then-complete')
      .expectError('The pasted scenario is not a valid races scenario; the previous scenario is kept');
    const store = createRacesStore({ builtins: races });
    store.getState().importText(JSON.stringify({ format: 1, lab: 'races', id: 'empty', title: 'Nothing', config: {}, events: [] }));
    expect(store.getState().error?.errors).toEqual([expect.stringMatching(/^events: is empty, so nothing happens and there is no outcome to show — add at least one event/)]);
  });

  it('state and outcome at the playhead come from the definition, the same object while the playhead stays in one step', () => {
    const store = createRacesStore({ builtins: races });
    store.getState().seek(0);
    const a = selectOutcomeAt(store.getState());
    expect(a).toEqual(racesDefinition.outcomeAt(store.getState().trace, 0));
    store.getState().toEnd();
    const end = selectOutcomeAt(store.getState());
    expect(end).toEqual(store.getState().trace.outcome);
    expect(selectOutcomeAt(store.getState())).toBe(end);
  });

  it('flow keeps the herd settings as its undoable extra slice', () => {
    const store = createFlowStore();
    store.getState().setExtra({ clients: 500 });
    expect(store.getState().extra.clients).toBe(500);
    store.getState().setExtra({ strategies: [] });
    expect(store.getState().error?.title).toBe('Pick at least one strategy for the herd plot');
    expect(store.getState().extra.clients).toBe(500);
    store.getState().undo();
    expect(store.getState().extra.clients).toBe(10000);
  });
});

describe('undo names its step; switching scenario is one undoable step in every lab (walkthrough: undo walked back through switches unannounced)', () => {
  it('races: an edit, then another built-in — Undo says "switch to B…", takes back the switch and keeps the edit; Redo says it again', () => {
    const store = createRacesStore({ builtins: races });
    const s = () => store.getState();
    expect(selectUndoStep(s())).toBeNull();
    s().moveEvent('cancel', 700);
    expect(selectUndoStep(s())).toBe('move cancel to 700 ms');
    s().loadBuiltin('B-complete-then-cancel');
    expect(selectUndoStep(s())).toBe('switch to B · Complete, then the cancel arrives');
    s().undo();
    expect(s().scenario.id).toBe('A-cancel-then-complete');
    expect(s().scenario.events.find((e) => e.id === 'cancel')?.at).toBe(700);
    expect(selectUndoStep(s())).toBe('move cancel to 700 ms');
    expect(selectRedoStep(s())).toBe('switch to B · Complete, then the cancel arrives');
    s().redo();
    expect(s().scenario.id).toBe('B-complete-then-cancel');
    expect(selectUndoStep(s())).toBe('switch to B · Complete, then the cancel arrives');
    expect(selectRedoStep(s())).toBeNull();
  });

  it('a drag and a run of nudges are one step each, named by their last move; settings, lesson rows, reset and imports are named', () => {
    const store = createRacesStore({ builtins: races });
    const s = () => store.getState();
    s().beginDrag();
    s().moveEvent('cancel', 500);
    s().moveEvent('cancel', 650);
    s().endDrag();
    expect(selectUndoStep(s())).toBe('move cancel to 650 ms');
    s().nudgeEvent('cancel', 10, 1_000);
    s().nudgeEvent('cancel', 10, 1_200);
    expect(selectUndoStep(s())).toBe('move cancel to 670 ms');
    s().undo();
    expect(s().scenario.events.find((e) => e.id === 'cancel')?.at).toBe(650);
    s().setConfig({ transport: 'streamable-http' });
    expect(selectUndoStep(s())).toBe('change transport');
    s().reset();
    expect(selectUndoStep(s())).toBe("reset to the lesson's scenario");
    s().applyExpectation(0);
    expect(selectUndoStep(s())).toBe(`show the lesson row "${A.expect?.[0]?.label}"`);
    expect(s().importText(JSON.stringify({ ...A, id: 'mine', title: 'Mine' }))).toBe(true);
    expect(selectUndoStep(s())).toBe('import Mine');
  });

  it('flow and resilience: picking another built-in is an undoable step named the same way', () => {
    const flow = createFlowStore();
    const second = flow.getState().builtins[1];
    flow.getState().loadBuiltin(second.id);
    expect(selectUndoStep(flow.getState())).toMatch(/^switch to /);
    expect(selectUndoStep(flow.getState())).toContain(second.title);
    flow.getState().setExtra({ clients: 500 });
    expect(selectUndoStep(flow.getState())).toBe('change clients');
    const { scenarios } = builtinResilience();
    const res = createResilienceStore({ builtins: scenarios, initialId: 'S1-three-layers' });
    res.getState().loadBuiltin('B2-retry-composition');
    expect(selectUndoStep(res.getState())).toMatch(/^switch to B2 · /);
    res.getState().undo();
    expect(res.getState().scenario.id).toBe('S1-three-layers');
    expect(selectRedoStep(res.getState())).toMatch(/^switch to B2 · /);
  });
});

describe('share links (labLink)', () => {
  const parse = (v: unknown) => racesDefinition.parse(v);

  it('an edit of a built-in travels as a compressed difference, much shorter than the old whole-scenario form, and round-trips exactly', () => {
    const moved = { ...A, events: A.events.map((e) => (e.id === 'cancel' ? { ...e, at: 310 } : e)) };
    const payload = encodeScenarioPayload(moved, races);
    expect(payload.startsWith('d1.')).toBe(true);
    const old = toBase64Url(JSON.stringify(moved));
    expect(payload.length).toBeLessThan(old.length / 4);
    expect(decodeScenarioPayload(payload, races, parse)).toEqual({ ok: true, scenario: moved });
  });

  it('a scenario with no built-in travels whole and compressed; a big one shrinks many times', () => {
    const events = Array.from({ length: 1991 }, (_, i) => ({ id: `e${i}`, at: i * 10, actor: 'client', kind: 'progress', requestId: 1, progress: i }));
    const big = { ...A, id: 'big', events: [A.events[0], ...events.map((e) => ({ ...e, actor: 'server' }))] };
    const payload = encodeScenarioPayload(big as typeof A, races);
    expect(payload.startsWith('z1.')).toBe(true);
    expect(payload.length).toBeLessThan(toBase64Url(JSON.stringify(big)).length / 5);
    const back = decodeScenarioPayload(payload, races, (v) => ({ ok: true, scenario: v as typeof A }));
    expect(back).toEqual({ ok: true, scenario: big });
  });

  it('old uncompressed links keep working; a cut-short compressed one names the problem', () => {
    const edited = { ...A, title: 'Old link' };
    const d = decodeLink('races', `#/races?scenario=${toBase64Url(JSON.stringify(edited))}`, races, parse, { configParams: true, playhead: true });
    expect(d.kind === 'ok' && d.scenario.title).toBe('Old link');
    const hash = encodeLink('races', { ...A, title: 'New' }, races);
    const cut = decodeLink('races', hash.slice(0, -6), races, parse);
    expect(cut).toMatchObject({ kind: 'bad', errors: [expect.stringMatching(/^scenario \(in the link\): /)] });
  });

  it('a store opened from a link with a bad playhead keeps the scenario and says what was ignored', () => {
    const s = racesStoreFromLink('#/races/B-complete-then-cancel?t=soon', races).getState();
    expect(s.scenario.id).toBe('B-complete-then-cancel');
    expect(s.cursorMs).toBe(0);
    expect(s.error?.errors[0]).toMatch(/^t \(playhead in the link\)/);
  });
});

describe('an import says what it loaded (walkthrough: a file or paste import was not signalled)', () => {
  it('names the imported scenario until the next edit, load or undo; a refused import names nothing', () => {
    const store = createRacesStore({ builtins: races });
    const s = store.getState;
    expect(s().imported).toBeNull();
    expect(s().importText('{ nope', 'The pasted scenario')).toBe(false);
    expect(s().imported).toBeNull();
    expect(s().importText(JSON.stringify({ ...A, id: 'mine', title: 'My cancel race' }), 'The file mine.json')).toBe(true);
    expect(s().imported).toBe('My cancel race');
    s().undo();
    expect(s().scenario.id).toBe('A-cancel-then-complete');
    expect(s().imported).toBeNull();
    s().redo();
    expect(s().scenario.id).toBe('mine');
    expect(s().imported).toBeNull(); // redo restores the scenario, not the news
    expect(s().importText(JSON.stringify({ ...A, id: 'mine2', title: 'Second' }), 'The pasted scenario')).toBe(true);
    expect(s().imported).toBe('Second');
    s().moveEvent('cancel', 350);
    expect(s().imported).toBeNull();
  });
});
