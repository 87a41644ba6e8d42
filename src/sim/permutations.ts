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
