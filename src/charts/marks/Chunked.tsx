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
  /** This chunk's own dependency (`Chunked`'s `chunkDep`), compared by identity. */
  own?: unknown;
}

function chunkEqual<T>(prev: ChunkProps<T>, next: ChunkProps<T>): boolean {
  if (prev.to - prev.from !== next.to - next.from || prev.deps.length !== next.deps.length || prev.own !== next.own) return false;
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
 * React one loop over the items instead of one component per mark. `chunkDep(items, from, to)`,
 * when given, is a dependency of one chunk only (compared by identity), e.g. the selected id when
 * the chunk holds the selected mark, else null: a new selection then redraws two chunks, not all.
 */
export function Chunked<T>({ items, render, deps, chunkDep }: { items: readonly T[]; render: (item: T, index: number) => ReactNode; deps: readonly unknown[]; chunkDep?: (items: readonly T[], from: number, to: number) => unknown }) {
  const chunks: ReactNode[] = [];
  for (let from = 0; from < items.length; from += CHUNK_SIZE) {
    const to = Math.min(items.length, from + CHUNK_SIZE);
    chunks.push(<Chunk key={from} items={items} from={from} to={to} render={render} deps={deps} own={chunkDep?.(items, from, to)} />);
  }
  return <Fragment>{chunks}</Fragment>;
}

interface BatchProps<T> {
  items: readonly T[];
  from: number;
  to: number;
  render: (items: readonly T[], from: number, to: number) => ReactNode;
  deps: readonly unknown[];
}

const Batch = memo(function Batch<T>({ items, from, to, render }: BatchProps<T>) {
  return <Fragment>{render(items, from, to)}</Fragment>;
}, chunkEqual as (a: BatchProps<unknown>, b: BatchProps<unknown>) => boolean) as <T>(props: BatchProps<T>) => ReactNode;

/**
 * Like `Chunked`, but `render` draws a whole chunk at once (`items[from..to)`): a layer can then
 * draw a chunk's marks of one style as one `<path>` instead of one element per mark. The same
 * skipping rule as `Chunked` (a chunk is re-rendered only when one of its items or `deps` changed);
 * `render` must read nothing but its items and what is in `deps`.
 */
export function ChunkedBatches<T>({ items, render, deps }: { items: readonly T[]; render: (items: readonly T[], from: number, to: number) => ReactNode; deps: readonly unknown[] }) {
  const chunks: ReactNode[] = [];
  for (let from = 0; from < items.length; from += CHUNK_SIZE) {
    chunks.push(<Batch key={from} items={items} from={from} to={Math.min(items.length, from + CHUNK_SIZE)} render={render} deps={deps} />);
  }
  return <Fragment>{chunks}</Fragment>;
}

/** `v` rounded to 1/100 px, as path data: the merged paths stay short and the drawing the same. */
export const px = (v: number): number => Math.round(v * 100) / 100;

/**
 * Path data of style groups: `add(key, part, d)` appends `d` to part `part` of the group `key`
 * (groups and parts keep the order they were first seen in). The layers draw each group as one
 * `<g>` with one `<path>` per part.
 */
export class PathGroups<S> {
  readonly groups = new Map<string, { style: S; parts: Map<string, string[]> }>();
  add(key: string, style: S, part: string, d: string): void {
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = { style, parts: new Map() }));
    const list = g.parts.get(part);
    if (list) list.push(d);
    else g.parts.set(part, [d]);
  }
}

/**
 * A layer of marks drawn in chunks of path batches (`ChunkedBatches` + `PathGroups`): per chunk,
 * `add(mark, groups)` files each mark's path parts under a style key; each style group becomes one
 * `<g className={groupClass(style)}>` holding one `<path className={partClass[part]}>` per part.
 * `add` and `groupClass` must read nothing but their arguments and what is in `deps`.
 */
export function PathBatchLayer<M, S>({ className, items, deps, add, groupClass, partClass }: { className: string; items: readonly M[]; deps: readonly unknown[]; add: (mark: M, groups: PathGroups<S>) => void; groupClass: (style: S) => string; partClass: Readonly<Record<string, string>> }) {
  return (
    <g className={className}>
      <ChunkedBatches
        items={items}
        deps={deps}
        render={(chunk, from, to) => {
          const groups = new PathGroups<S>();
          for (let i = from; i < to; i++) add(chunk[i], groups);
          return [...groups.groups].map(([key, g]) => (
            <g key={key} className={groupClass(g.style)}>
              {[...g.parts].map(([part, ds]) => (
                <path key={part} className={partClass[part]} d={ds.join('')} />
              ))}
            </g>
          ));
        }}
      />
    </g>
  );
}
