import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkTranscript } from '../checks';
import { LINE_ORDER_TIME_ASSUMPTION, detectFormat, importTranscript, transcriptMessages } from '../parse';
import type { ImportResult, Transcript } from '../types';

const ok = (r: ImportResult): Transcript => {
  if (!r.ok) throw new Error(r.reason);
  return r.transcript;
};

/** Bare JSON-RPC messages, one per line: no ts, no dir (what `jq -c` of a capture or a hand-written log gives). */
const PLAIN = readFileSync(new URL('./fixtures/plain.jsonl', import.meta.url), 'utf8').split('\n');

describe('plain JSON Lines of JSON-RPC messages (no ts, no dir)', () => {
  it('is detected as JSON-RPC JSONL', () => {
    expect(detectFormat(PLAIN.join('\n'))).toEqual({ format: 'jsonrpc-jsonl' });
    expect(detectFormat('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({ format: 'jsonrpc-jsonl' });
  });

  it('infers each direction from the message kind and takes line order as time, 1 ms per line, saying so', () => {
    const t = ok(importTranscript(PLAIN.join('\n')));
    expect(t.format).toBe('jsonrpc-jsonl');
    expect(t.skipped).toEqual([]);
    expect(t.timeAssumption).toBe(LINE_ORDER_TIME_ASSUMPTION);
    expect(t.timeAssumption).toMatch(/^no timestamps: 1 ms per line/);
    expect(transcriptMessages(t).map((m) => [m.atMs, m.direction, m.line])).toEqual([
      [0, 'c2s', 1], // initialize: a request from the client
      [1, 's2c', 2], // its response: from the side that did not send id 0
      [2, 'c2s', 3], // notifications/initialized: a client notification
      [3, 'c2s', 4], // tools/call
      [4, 's2c', 5], // sampling/createMessage: a server-to-client request
      [5, 's2c', 6], // progress for the client's token comes from the server
      [6, 'c2s', 7], // the response to the server's sampling request comes from the client
      [7, 'c2s', 9], // the cancel travels like the request it names
      [8, 's2c', 10],
    ]);
    expect(t.outOfOrder.count).toBe(0);
    expect(t.revision).toBe('2025-11-25');
    // The checks run on it as on a timed file (initialize, tools/call and the server's sampling request).
    expect(checkTranscript(t).checked.requests).toBe(3);
  });

  it('timed files keep their times and no assumption', () => {
    const t = ok(importTranscript('{"ts":10,"dir":"req","jsonrpc":"2.0","id":1,"method":"a"}\n{"ts":25,"dir":"res","jsonrpc":"2.0","id":1,"result":{}}'));
    expect(t.timeAssumption).toBeUndefined();
    expect(transcriptMessages(t).map((m) => m.atMs)).toEqual([0, 15]);
  });

  it('a file mixing timed and untimed lines skips the untimed ones and says what to fix', () => {
    const t = ok(importTranscript('{"ts":10,"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","id":1,"result":{}}'));
    expect(t.timeAssumption).toBeUndefined();
    expect(transcriptMessages(t)).toHaveLength(1);
    expect(t.skipped).toEqual([{ line: 2, reason: 'no "ts" (timestamp) field while other lines have one — give every line a ts, or none (then line order is time order)', text: '{"jsonrpc":"2.0","id":1,"result":{}}' }]);
  });

  it('an unreadable file shows its first line as written (not escaped) and says what to give instead', () => {
    const r = importTranscript('{"hello": "world"}\nsecond');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toContain('the first line is: {"hello": "world"} — give one JSON-RPC message per line');
    expect(r.reason).not.toContain('\\"');
    expect(r.reason).not.toMatch(/\n/);
  });

  it('a line that is JSON but no message says what a message needs', () => {
    const t = ok(importTranscript('{"jsonrpc":"2.0","id":1,"method":"a"}\n{"note":"x"}'));
    expect(t.skipped).toEqual([{ line: 2, reason: expect.stringMatching(/— a message needs "jsonrpc":"2\.0" and a method \(request, notification\) or an id with result or error$/), text: '{"note":"x"}' }]);
  });
});
