import { useStore, type StoreApi } from 'zustand';
import { useShallow } from 'zustand/react/shallow';

/**
 * The named top-level fields of a store's state, as one object: one subscription, and a re-render
 * only when one of those fields changes (compared shallowly, field by field, with `Object.is`).
 * For a panel that reads several plain fields; a derived value keeps its own selector.
 */
export function useFields<S, K extends keyof S>(store: StoreApi<S>, ...keys: K[]): Pick<S, K> {
  return useStore(
    store,
    useShallow((s: S) => {
      const picked = {} as Pick<S, K>;
      for (const key of keys) picked[key] = s[key];
      return picked;
    }),
  );
}
