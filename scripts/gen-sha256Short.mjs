#!/usr/bin/env node
/**
 * Generates `word0Short` in src/sim/flow/sha256Short.ts: the FIPS 180-4 SHA-256 compression of one
 * 64-byte block written out round by round for a message of at most 11 bytes, where only words 0,
 * 1, 2 (message and the 0x80 padding byte) and 15 (the length in bits) of the block are non-zero:
 * the zero words are folded out of the message schedule and the rounds, and the eight working
 * variables are renamed instead of shifted (`na<i>`, `ne<i>` are round i's new a and e), so V8
 * keeps everything in registers. Only the first digest word is returned.
 *
 *   node scripts/gen-sha256Short.mjs           print the function
 *   node scripts/gen-sha256Short.mjs --write   replace it in src/sim/flow/sha256Short.ts
 *   node scripts/gen-sha256Short.mjs --check   exit 1 when the file's copy differs
 *
 * `scripts/gen-sha256Short.test.ts` regenerates it and compares byte for byte with the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The file holding the generated function. */
export const TARGET = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/sim/flow/sha256Short.ts');

/** SHA-256 round constants (FIPS 180-4 §4.2.2): the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];
/** Initial hash value H(0) (FIPS 180-4 §5.3.3). */
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x, n) => `(((${x}) >>> ${n}) | ((${x}) << ${32 - n}))`;
const shr = (x, n) => `((${x}) >>> ${n})`;
const sigma0 = (x) => `(${rotr(x, 7)} ^ ${rotr(x, 18)} ^ ${shr(x, 3)})`;
const sigma1 = (x) => `(${rotr(x, 17)} ^ ${rotr(x, 19)} ^ ${shr(x, 10)})`;
const bigSigma0 = (x) => `(${rotr(x, 2)} ^ ${rotr(x, 13)} ^ ${rotr(x, 22)})`;
const bigSigma1 = (x) => `(${rotr(x, 6)} ^ ${rotr(x, 11)} ^ ${rotr(x, 25)})`;

/** The text of `word0Short`, from `function` to its closing brace and newline. */
export function generateWord0Short() {
  const zero = (t) => t >= 3 && t <= 14; // words 3–14 of the padded block are zero for ≤ 11 bytes
  const out = ['function word0Short(w0: number, w1: number, w2: number, w15: number): number {'];
  // Message schedule: W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], zero terms left out.
  for (let t = 16; t < 64; t++) {
    const terms = [];
    if (!zero(t - 16)) terms.push(`w${t - 16}`);
    if (!zero(t - 15)) terms.push(sigma0(`w${t - 15}`));
    if (!zero(t - 7)) terms.push(`w${t - 7}`);
    if (!zero(t - 2)) terms.push(sigma1(`w${t - 2}`));
    out.push(`  const w${t} = (${terms.join(' + ')}) | 0;`);
  }
  const names = ['a0', 'b0', 'c0', 'd0', 'e0', 'f0', 'g0', 'h0'];
  names.forEach((n, i) => out.push(`  const ${n} = ${H0[i] | 0};`));
  let [a, b, c, d, e, f, g, h] = names;
  for (let i = 0; i < 64; i++) {
    const w = zero(i) ? '' : ` + w${i}`;
    out.push(`  const t1_${i} = (${h} + ${bigSigma1(e)} + ((${e} & ${f}) ^ (~${e} & ${g})) + ${K[i] | 0}${w}) | 0;`);
    out.push(`  const na${i} = (t1_${i} + ${bigSigma0(a)} + ((${a} & ${b}) ^ (${a} & ${c}) ^ (${b} & ${c}))) | 0;`);
    if (i < 63) out.push(`  const ne${i} = (${d} + t1_${i}) | 0;`); // the last round's e is not needed for word 0
    [a, b, c, d, e, f, g, h] = [`na${i}`, a, b, c, `ne${i}`, e, f, g];
  }
  out.push(`  return (${a} + ${H0[0] >>> 0}) >>> 0;`, '}', '');
  return out.join('\n');
}

/** Where the generated function stands in `text`: [start, end) offsets. Throws an Error when it is not there. */
export function generatedRange(text) {
  const start = text.indexOf('function word0Short(');
  const end = text.indexOf('\n}\n', start);
  if (start < 0 || end < 0) throw new Error(`${TARGET}: no function word0Short( … ) found — restore it, then run with --write`);
  return [start, end + 3];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const generated = generateWord0Short();
  const mode = process.argv[2];
  if (mode === '--write' || mode === '--check') {
    const text = readFileSync(TARGET, 'utf8');
    const [start, end] = generatedRange(text);
    const same = text.slice(start, end) === generated;
    if (mode === '--check') {
      console.log(same ? 'sha256Short.ts: word0Short is as generated' : 'sha256Short.ts: word0Short differs from the generator — run node scripts/gen-sha256Short.mjs --write');
      process.exit(same ? 0 : 1);
    }
    if (!same) writeFileSync(TARGET, text.slice(0, start) + generated + text.slice(end));
    console.log(same ? 'sha256Short.ts: unchanged' : 'sha256Short.ts: word0Short rewritten');
  } else process.stdout.write(generated);
}
