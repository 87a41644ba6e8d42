#!/usr/bin/env node
/**
 * Test fixture for the proxy's byte identity: appends every byte it reads on stdin to the file
 * `argv[2]`, writes the bytes of the file `argv[3]` to stdout in uneven chunks with pauses (so
 * lines arrive split), writes one line to stderr, and exits 0 once stdin has ended and its own
 * bytes are written.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';

const [inFile, sendFile] = process.argv.slice(2);
writeFileSync(inFile, '');
process.stdin.on('data', (chunk) => appendFileSync(inFile, chunk));
const bytes = readFileSync(sendFile);
process.stderr.write('byte-server stderr line\n');
const sizes = [7, 1, 30, 4096, 65536, 3, 1 << 20];
let at = 0;
let i = 0;
let stdinEnded = false;
let sent = false;
const maybeExit = () => {
  if (stdinEnded && sent) process.exit(0);
};
process.stdin.on('end', () => {
  stdinEnded = true;
  maybeExit();
});
const next = () => {
  if (at >= bytes.length) {
    sent = true;
    maybeExit();
    return;
  }
  const n = sizes[i++ % sizes.length];
  const piece = bytes.subarray(at, at + n);
  at += n;
  if (process.stdout.write(piece)) setTimeout(next, i % 3 === 0 ? 5 : 0);
  else process.stdout.once('drain', next);
};
next();
