/** `serve`'s command line, its chaos draw and its scenario mapping (pure parts; the live tests run the rest). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { capsLine, DEFAULT_CAPS, parseServeArgs } from './options';
import { chaosDrawer } from './runtime';
import { scenarioFaults } from './scenario';
import { CHAOS_TO_LIVE } from '../../sim/faultVocabulary';

const root = path.resolve(__dirname, '../../..');
const builtin = (lab: string, file: string) => readFileSync(path.join(root, 'public/scenarios', lab, file), 'utf8');

describe('parseServeArgs', () => {
  it('defaults to stdio, no fault, the lab tools and the default caps', () => {
    const r = parseServeArgs([]);
    expect(r).toEqual({ ok: true, options: expect.objectContaining({ http: null, faults: [], tools: 'lab', chaosSeed: null, caps: DEFAULT_CAPS }) });
  });
  it('reads every flag', () => {
    const r = parseServeArgs(['--http', '[::1]:0', '--fault', 'ignore-cancel,big-result', '--fault', 'big-result,stream-cut', '--chaos', '42', '--tools', 'all', '--max-calls', '5', '--max-result-bytes', '1000', '--keepalive-ms', '0']);
    expect(r.ok && r.options).toMatchObject({ http: { host: '::1', port: 0 }, faults: ['ignore-cancel', 'big-result', 'stream-cut'], chaosSeed: 42, tools: 'all', keepAliveMs: 0, caps: { maxCalls: 5, maxResultBytes: 1000 } });
  });
  it.each([
    [['--http', '0.0.0.0:3000'], '--http: 0.0.0.0 is not a loopback address — serve listens on 127.0.0.1, localhost or ::1 unless you add --unsafe-bind'],
    [['--http', '127.0.0.1:70000'], '--http: port 70000 is out of range (0–65535)'],
    [['--http', 'nope'], '--http: "nope" is not HOST:PORT (e.g. 127.0.0.1:3333)'],
    [['--fault', 'slow'], expect.stringMatching(/^--fault: unknown fault "slow" — the faults are ignore-cancel, /)],
    [['--chaos', '-1'], '--chaos: "-1" is not a seed (an integer 0–4294967295)'],
    [['--tools', 'x'], '--tools: "x" is not a tool set — use lab, conformance, all'],
    [['--max-calls', '0'], '--max-calls: "0" is not a positive whole number'],
    [['--record'], '--record: needs a value'],
    [['--bogus', '1'], 'unknown option "--bogus" — see mcp-lab serve --help'],
  ])('%j → one clear line', (argv, error) => {
    expect(parseServeArgs(argv)).toEqual({ ok: false, error });
  });
  it('allows a non-loopback address only with --unsafe-bind', () => {
    expect(parseServeArgs(['--http', '0.0.0.0:3000', '--unsafe-bind']).ok).toBe(true);
  });
  it('prints every cap on the start-up line', () => {
    const r = parseServeArgs(['--fault', 'late-result']);
    expect(r.ok && capsLine(r.options, 'stdio')).toBe('mcp-lab serve: stdio · faults: late-result · tools: lab · caps: 10000 calls, 64 at once, 120000 ms per call, 8388608 bytes per result, 4194304 bytes per request');
  });
});

describe('chaosDrawer', () => {
  it('draws the same faults from one seed and call order, and other faults from another seed', () => {
    const run = (seed: number, transport: 'stdio' | 'http') => {
      const draw = chaosDrawer(seed);
      return Array.from({ length: 40 }, () => draw(transport)?.fault ?? null);
    };
    expect(run(7, 'http')).toEqual(run(7, 'http'));
    expect(run(7, 'http')).not.toEqual(run(8, 'http'));
    const drawn = run(7, 'http').filter((f) => f !== null);
    expect(drawn.length).toBeGreaterThan(5);
    expect(drawn.every((f) => Object.values(CHAOS_TO_LIVE).includes(f!))).toBe(true);
  });
  it('never draws an HTTP-only fault on stdio', () => {
    const draw = chaosDrawer(3);
    const faults = Array.from({ length: 200 }, () => draw('stdio')?.fault).filter(Boolean);
    expect(faults).not.toContain('stream-cut');
    expect(faults).not.toContain('no-first-byte');
    expect(faults.length).toBeGreaterThan(50);
  });
});

describe('scenarioFaults', () => {
  it('maps a races scenario: timings of its first call, bug switches → faults', () => {
    const a = JSON.parse(builtin('races', 'A-cancel-then-complete.json'));
    a.config.policy = { respondAfterCancel: true, clientNeverSettles: true };
    const r = scenarioFaults(JSON.stringify(a));
    expect(r).toMatchObject({ ok: true, faults: ['ignore-cancel'], job: { durationMs: 480, progressEveryMs: 130 } });
    expect(r.ok && r.notes).toContain('policy.clientNeverSettles is the client\'s (or the network\'s) bug: not played by the server');
  });
  it('maps cancellable: false to ignore-cancel (F3)', () => {
    expect(scenarioFaults(builtin('races', 'F3-late-result.json'))).toMatchObject({ ok: true, faults: ['ignore-cancel'], job: { durationMs: 74049, progressEveryMs: 0 } });
  });
  it('maps a complete event\'s resultBytes to big-result with that size (K4, claude-code#65413)', () => {
    const r = scenarioFaults(builtin('races', 'K4-large-line-never-read.json'));
    expect(r).toMatchObject({ ok: true, faults: ['big-result'], job: { durationMs: 89, progressEveryMs: 0, resultBytes: 15400 } });
    expect(r.ok && r.notes).toContain('resultBytes 15400 → --fault big-result with a 15400-byte result text');
  });
  it('refuses another lab\'s scenario with one line naming the lab that maps', () => {
    expect(scenarioFaults(builtin('ledger', 'G-key-in-progress.json'))).toEqual({ ok: false, error: 'is a ledger lab scenario — serve maps only the races lab\'s scenarios (one server\'s answers to a call: delays, progress cadence, completion, server bug switches)' });
    expect(scenarioFaults('{')).toMatchObject({ ok: false, error: expect.stringMatching(/not valid JSON/) });
  });
});
