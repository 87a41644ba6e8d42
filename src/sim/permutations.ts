/**
 * Permutation helpers shared by the two "all orders" explorers (`orders.ts` on the checkpointed
 * core, `labOrders.ts` over a lab's replay). A permutation is an array of indices 0…k−1.
 */

/** n! for n ≤ 8 (the explorers' cap on selected events). */
export const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/** Number of pairs out of their original order (0 = the scenario as written). */
export function countInversions(perm: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < perm.length; i++) for (let j = i + 1; j < perm.length; j++) if (perm[i] > perm[j]) n++;
  return n;
}

/** Advances `a` to the next permutation in lexicographic order (wraps to the first after the last). */
export function nextPermutation(a: number[]): void {
  let i = a.length - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i >= 0) {
    let j = a.length - 1;
    while (a[j] <= a[i]) j--;
    [a[i], a[j]] = [a[j], a[i]];
  }
  for (let l = i + 1, r = a.length - 1; l < r; l++, r--) [a[l], a[r]] = [a[r], a[l]];
}

/** What an explorer tells its caller while it runs: progress, and a way to ask it to stop. */
export interface ExploreProgress {
  onProgress?(done: number, total: number): void;
  shouldStop?(): boolean;
}

/**
 * The explorers' checkpoint at order `n` of `total`: at every `every`-th order after the first
 * (`every` a power of two) it reports `n` to `onProgress` and asks `shouldStop`. True means stop
 * now (the caller marks its run cancelled); false at every other order.
 */
export function progressSaysStop(hooks: ExploreProgress, n: number, total: number, every: number): boolean {
  if ((n & (every - 1)) !== 0 || n === 0) return false;
  hooks.onProgress?.(n, total);
  return Boolean(hooks.shouldStop?.());
}
