import type { ReplayResult } from '../sim/replay';
import { decodeLink } from './labLink';
import { createLabStore } from './labStore';
import { labTexts } from './labTexts';
import type { LabStore, LabStoreSpec } from './labStoreTypes';

/** Opening a lab store at an address: the link helpers of `createLabStore` (re-exported by labStore.ts). */

/**
 * The store for a page opened at address `hash`: the scenario the link names (with any ignored
 * parameters in the banner), or — for a bad link — the first built-in with the link's problems.
 */
export function storeFromLink<S, O, T extends ReplayResult<S, O>, X = null>(spec: LabStoreSpec<S, O, T, X>, hash: string): LabStore<T, X> {
  const text = labTexts(spec.definition.id);
  if (spec.definition.parserReady?.() && linkParses(spec, hash)) {
    // The parser is still loading (a page should wait for `parserReady` first): show the first
    // built-in and follow the link once it can be read (`followLink` waits for the parser).
    const store = createLabStore(spec);
    store.getState().followLink(hash);
    return store;
  }
  const parse = (value: unknown) => {
    const parsed = spec.definition.parse(value);
    const problem = parsed.ok ? (spec.definition.pageProblem?.(parsed.scenario) ?? null) : null;
    return problem ? { ok: false as const, errors: [problem] } : parsed;
  };
  const d = decodeLink(spec.definition.id, hash, spec.builtins, parse, spec.link);
  if (d.kind === 'ok') {
    const error = d.warnings.length ? { title: text.partsIgnored(d.scenario.title, d.builtinId !== null), errors: d.warnings } : undefined;
    return createLabStore(spec, { initial: d.scenario, original: d.original, cursorMs: d.cursorMs, error });
  }
  if (d.kind === 'bad') return createLabStore(spec, { error: { title: text.badLinkShown(spec.builtins[0]?.title ?? ''), errors: d.errors } });
  return createLabStore(spec);
}

/**
 * Whether reading address `hash` parses a scenario (a scenario in the link, or settings changed
 * on a built-in); a plain built-in link (with or without a playhead) does not. Never throws.
 */
export function linkParses<S, O, T extends ReplayResult<S, O>, X = null>(spec: LabStoreSpec<S, O, T, X>, hash: string): boolean {
  let parses = false;
  decodeLink(spec.definition.id, hash, spec.builtins, () => {
    parses = true;
    return { ok: false, errors: [] };
  }, spec.link);
  return parses;
}
