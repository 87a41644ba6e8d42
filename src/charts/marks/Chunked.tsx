import { Fragment, memo, type ReactNode } from 'react';

/** Items per chunk: React compares a chunk's items in one plain loop and skips the chunk when none changed. */
export const CHUNK_SIZE = 64;

/** Whether `a` and `b` are the same object or objects with the same own fields (compared by identity). */
export function sameFields(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if ((a as Record<string, unknown>)[k] !== (b as Record<string, unknown>)[k]) return false;
  return true;
}

interface ChunkProps<T> {
  items: readonly T[];
  from: number;
  to: number;
  render: (item: T, index: number) => ReactNode;
  deps: readonly unknown[];
}

function chunkEqual<T>(prev: ChunkProps<T>, next: ChunkProps<T>): boolean {
  if (prev.to - prev.from !== next.to - next.from || prev.deps.length !== next.deps.length) return false;
  for (let i = 0; i < prev.deps.length; i++) if (prev.deps[i] !== next.deps[i]) return false;
  for (let i = 0; i < next.to - next.from; i++) if (!sameFields(prev.items[prev.from + i], next.items[next.from + i])) return false;
  return true;
}

const Chunk = memo(function Chunk<T>({ items, from, to, render }: ChunkProps<T>) {
  const out: ReactNode[] = [];
  for (let i = from; i < to; i++) out.push(render(items[i], i));
  return <Fragment>{out}</Fragment>;
}, chunkEqual) as <T>(props: ChunkProps<T>) => ReactNode;

/**
 * Renders `items` through `render` in chunks of CHUNK_SIZE, each re-rendered only when one of its
 * items changed (same object, or the same own fields by identity: `sameFields`) or one of `deps`
 * did (compared by identity). `render` must read nothing but its item, its index and what is in
 * `deps` (a chunk that is skipped keeps what the last `render` drew). Adds no element of its own:
 * the DOM is the same as `items.map(render)`. A long drag over thousands of marks then costs
 * React one loop over the items instead of one component per mark.
 */
export function Chunked<T>({ items, render, deps }: { items: readonly T[]; render: (item: T, index: number) => ReactNode; deps: readonly unknown[] }) {
  const chunks: ReactNode[] = [];
  for (let from = 0; from < items.length; from += CHUNK_SIZE) {
    chunks.push(<Chunk key={from} items={items} from={from} to={Math.min(items.length, from + CHUNK_SIZE)} render={render} deps={deps} />);
  }
  return <Fragment>{chunks}</Fragment>;
}
