/**
 * Bytes to transcript text, and text safe to print. A transcript is UTF-8 (a BOM accepted) or
 * UTF-16 (with a BOM, or without one when every other byte of its start is NUL: what PowerShell's
 * `>` writes); anything else with NUL bytes is a binary file, named as such rather than echoed.
 * Browser-safe (TextDecoder).
 */

/** The encoding of a transcript's first bytes, or `binary` (NUL bytes that are not UTF-16). */
export type TranscriptEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'binary';

/** The one line shown for a binary file. */
export const BINARY_REASON = 'a binary file, not a text transcript (it holds NUL bytes; a transcript is UTF-8 or UTF-16 text)';

/** Guesses the encoding from the first bytes (up to 4 KB are enough). */
export function sniffEncoding(head: Uint8Array): TranscriptEncoding {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const n = Math.min(head.length, 4096);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i++) {
    if (head[i] !== 0) continue;
    if (i % 2 === 0) even++;
    else odd++;
  }
  if (even + odd === 0) return 'utf-8';
  const pairs = Math.floor(n / 2);
  // ASCII text in UTF-16: (nearly) every high byte is NUL, and no low byte is.
  if (odd >= pairs * 0.9 && even === 0) return 'utf-16le';
  if (even >= pairs * 0.9 && odd === 0) return 'utf-16be';
  return 'binary';
}

/** A streaming decoder of one encoding (`decode(chunk)` keeps a character split between chunks for the next); strips a leading BOM. */
export function transcriptDecoder(encoding: Exclude<TranscriptEncoding, 'binary'>): { decode(chunk: Uint8Array, final?: boolean): string } {
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  return { decode: (chunk, final = false) => decoder.decode(chunk, { stream: !final }) };
}

/** The text of a whole file's bytes: `{ ok: true, text, encoding }`, or `{ ok: false, reason }` for a binary file. */
export function decodeTranscript(bytes: Uint8Array): { ok: true; text: string; encoding: Exclude<TranscriptEncoding, 'binary'> } | { ok: false; reason: string } {
  const encoding = sniffEncoding(bytes.subarray(0, 4096));
  if (encoding === 'binary') return { ok: false, reason: BINARY_REASON };
  const text = transcriptDecoder(encoding).decode(bytes, true);
  if (text.includes('\u0000')) return { ok: false, reason: BINARY_REASON };
  return { ok: true, text, encoding };
}

/**
 * `s` with every control character other than tab and newline (C0, DEL, C1, and the bidi
 * overrides) written as `\u00XX`, so a message quoting a hostile line never drives the terminal.
 */
export function printable(s: string): string {
   
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
