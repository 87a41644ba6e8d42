/**
 * Number formatting shared by charts and panels. Thousands are grouped with a plain space
 * ("1 500") so the text reads the same in every locale and copies cleanly.
 */
export function formatMs(ms: number): string {
  const n = Math.round(ms);
  const sign = n < 0 ? '-' : '';
  return sign + String(Math.abs(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/** The one en-US number formatter (`formatCount`). */
const EN_US = new Intl.NumberFormat('en-US');

/**
 * `n` as `n.toLocaleString('en-US')` writes it ("100,000"; "1,234.5"; up to three decimals), from
 * one shared `Intl.NumberFormat`: `toLocaleString` builds a new formatter on every call, and the
 * herd plot formats hundreds of numbers per step of its client slider (ECMA-402: the same result).
 */
export function formatCount(n: number): string {
  return EN_US.format(n);
}

/** "1 500 ms" */
export function formatTime(ms: number): string {
  return `${formatMs(ms)} ms`;
}

/** Bidi controls: LRE, RLE, PDF, LRO, RLO (U+202A–U+202E), LRI, RLI, FSI, PDI (U+2066–U+2069), LRM, RLM (U+200E/F), ALM (U+061C). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * `text` with every Unicode bidirectional control character removed (U+202A–U+202E, U+2066–U+2069,
 * U+200E, U+200F, U+061C), so an imported label cannot reorder what is drawn after it (the
 * "Trojan Source" trick, CVE-2021-42574). Letters of right-to-left scripts are kept and still shown
 * right to left by the Unicode bidi algorithm; only the invisible overrides go. Every label the
 * timeline draws (text, tooltips, accessible names) passes through this.
 */
export function neutraliseBidi(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
