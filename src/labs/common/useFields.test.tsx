import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useFields } from './useFields';

interface S {
  a: number;
  b: string;
  c: boolean;
}

describe('useFields', () => {
  // No DOM here: the server render reads each store's initial state (zustand's server snapshot).
  it('returns exactly the named fields of the store state, with their values', () => {
    let seen: unknown = null;
    function Probe({ store }: { store: StoreApi<S> }) {
      const picked = useFields(store, 'a', 'b');
      seen = picked;
      return createElement('span', null, `${picked.a}:${picked.b}`);
    }
    const one = createStore<S>()(() => ({ a: 1, b: 'x', c: true }));
    expect(renderToString(createElement(Probe, { store: one }))).toBe('<span>1:x</span>');
    expect(seen).toEqual({ a: 1, b: 'x' });
    const two = createStore<S>()(() => ({ a: 2, b: 'y', c: false }));
    expect(renderToString(createElement(Probe, { store: two }))).toBe('<span>2:y</span>');
    expect(seen).toEqual({ a: 2, b: 'y' });
  });
});
