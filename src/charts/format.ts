/**
 * Number formatting shared by charts and panels. Thousands are grouped with a plain space
 * ("1 500") so the text reads the same in every locale and copies cleanly.
 */
export function formatMs(ms: number): string {
  const n = Math.round(ms);
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** "1 500 ms" */
export function formatTime(ms: number): string {
  return `${formatMs(ms)} ms`;
}
