import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { BACKOFF_STRATEGIES, backoffDelayMs, type BackoffStrategy } from '../../retry/backoff';
import { herdAttemptLimit, herdDelayFn, lessonDelayTable, occExperiment, simulateHerd, type HerdParams } from '../herd';
import { sha256Word0 } from '../sha256Short';

const P = { baseMs: 100, capMs: 5000, seed: 7 };

describe('sha256Word0 (one-block SHA-256, first word)', () => {
  it('matches node:crypto for every length 0..55', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 55 }), (bytes) => {
        const want = createHash('sha256').update(bytes).digest().readUInt32BE(0);
        expect(sha256Word0(bytes, bytes.length)).toBe(want);
      }),
      { numRuns: 400 },
    );
  });
  it('the unrolled path (0..11 bytes) matches node:crypto, including every "c<id>:<attempt>" shape the herd hashes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 11 }), (bytes) => {
        expect(sha256Word0(bytes, bytes.length)).toBe(createHash('sha256').update(bytes).digest().readUInt32BE(0));
      }),
      { numRuns: 600 },
    );
    for (const id of ['c1:0', 'c9:7', 'c10:3', 'c99999:7', 'c100000:7', 'c1000000:31']) {
      const bytes = new TextEncoder().encode(id);
      expect(sha256Word0(bytes, bytes.length)).toBe(createHash('sha256').update(id).digest().readUInt32BE(0));
    }
  });
  it('refuses messages longer than one block', () => {
    expect(() => sha256Word0(new Uint8Array(56), 56)).toThrow(/56 bytes does not fit one block/);
  });
});

describe('herd delays equal backoffDelayMs for every strategy', () => {
  it('client by client, attempts in order', () => {
    for (const s of BACKOFF_STRATEGIES) {
      const fn = herdDelayFn(s, P, 300, 8);
      for (let c = 0; c < 300; c++) for (let a = 0; a < 8; a++) expect(fn(c, a)).toBe(backoffDelayMs(s, `c${c + 1}`, a, P));
    }
  });
  it('decorrelated jitter out of order still matches (falls back to iterating)', () => {
    const fn = herdDelayFn('decorrelated-jitter', P, 10, 8);
    expect(fn(3, 5)).toBe(backoffDelayMs('decorrelated-jitter', 'c4', 5, P));
    expect(fn(3, 2)).toBe(backoffDelayMs('decorrelated-jitter', 'c4', 2, P));
  });
  it('the cached lesson table holds the same delays', () => {
    const t = lessonDelayTable(50, 8);
    for (let c = 0; c < 50; c++) for (let a = 0; a < 8; a++) expect(t[c * 8 + a]).toBe(backoffDelayMs('lesson-sha256', `c${c + 1}`, a, P));
  });
});

describe('simulateHerd', () => {
  const base: HerdParams = { clients: 2000, strategy: 'full-jitter', backoff: { baseMs: 500, capMs: 16000, seed: 3 }, outageMs: 3000, acceptPerSecond: 400, maxAttempts: 8, bucketMs: 250 };

  it('without jitter every client arrives in the same millisecond each round', () => {
    const r = simulateHerd({ ...base, strategy: 'exponential', outageMs: 0, acceptPerSecond: 1_000_000 });
    expect(r.arrivals[Math.floor(500 / 250)]).toBe(2000);
    expect(r.peakArrivalsPerSecond).toBe(2000);
    expect(r.allBackAtMs).toBe(500);
    expect(r.totalAttempts).toBe(2000);
  });

  it('jitter lowers the peak bucket and gets everyone back', () => {
    const p = { ...base, backoff: { baseMs: 1000, capMs: 32000, seed: 3 }, outageMs: 10000, acceptPerSecond: 300 };
    const plain = simulateHerd({ ...p, strategy: 'exponential' });
    const full = simulateHerd(p);
    expect(Math.max(...plain.arrivals)).toBe(2000);
    expect(Math.max(...full.arrivals)).toBeLessThan(1000);
    expect(full.connected).toBe(2000);
    expect(full.allBackAtMs).not.toBeNull();
    expect(plain.connected).toBe(1500); // 5 rounds after the outage × 300 accepted
    expect(plain.allBackAtMs).toBeNull();
  });

  it('conserves clients and attempts, respects the outage and the accept rate (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<BackoffStrategy>(...BACKOFF_STRATEGIES),
        fc.integer({ min: 10, max: 800 }),
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(100, 250, 1000),
        (strategy, clients, outageMs, acceptPerSecond, maxAttempts, bucketMs) => {
          const r = simulateHerd({ ...base, strategy, clients, outageMs, acceptPerSecond, maxAttempts, bucketMs });
          expect(r.connected + r.gaveUp).toBe(clients);
          expect(r.arrivals.reduce((x, y) => x + y, 0)).toBe(r.totalAttempts);
          expect(r.accepted.reduce((x, y) => x + y, 0)).toBe(r.connected);
          expect(r.attemptLimit).toBe(strategy === 'sdk-default' ? Math.min(2, maxAttempts) : maxAttempts);
          expect(r.totalAttempts).toBeLessThanOrEqual(clients * r.attemptLimit);
          for (let b = 0; b < r.accepted.length; b++) {
            if ((b + 1) * bucketMs <= outageMs) expect(r.accepted[b]).toBe(0);
          }
          // accepted per second ≤ the rate
          const perSecond = new Map<number, number>();
          r.accepted.forEach((n, b) => perSecond.set(Math.floor((b * bucketMs) / 1000), (perSecond.get(Math.floor((b * bucketMs) / 1000)) ?? 0) + n));
          if (bucketMs <= 1000) for (const n of perSecond.values()) expect(n).toBeLessThanOrEqual(acceptPerSecond);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the SDK default stops after its maxRetries of 2, whatever maxAttempts allows', () => {
    expect(herdAttemptLimit('sdk-default', 8)).toBe(2);
    expect(herdAttemptLimit('sdk-default', 1)).toBe(1);
    expect(herdAttemptLimit('exponential', 8)).toBe(8);
    // Attempts at 1000 ms and 1000 + 1500 = 2500 ms, both inside a 10000 ms outage: everyone gives up.
    const long = simulateHerd({ ...base, strategy: 'sdk-default', outageMs: 10000, maxAttempts: 8 });
    expect(long).toMatchObject({ attemptLimit: 2, totalAttempts: 4000, connected: 0, gaveUp: 2000, allBackAtMs: null, lastAttemptAtMs: 2500 });
    // A 2000 ms outage: the 2500 ms attempt meets 1000 accepted per second; the other 1000 give up.
    const short = simulateHerd({ ...base, strategy: 'sdk-default', outageMs: 2000, acceptPerSecond: 1000, maxAttempts: 8 });
    expect(short).toMatchObject({ totalAttempts: 4000, connected: 1000, gaveUp: 1000, allBackAtMs: null });
    // The delay formula is unchanged: 1000 · 1.5^attempt up to 30000 ms.
    expect([0, 1, 2, 9, 10].map((a) => backoffDelayMs('sdk-default', 'c1', a, P))).toEqual([1000, 1500, 2250, 30000, 30000]);
  });

  it('rejects bad parameters with the field named', () => {
    expect(() => simulateHerd({ ...base, clients: 0 })).toThrow(/clients must be an integer in \[1, 1000000\], got 0/);
    expect(() => simulateHerd({ ...base, maxAttempts: 40 })).toThrow(/maxAttempts/);
  });
});

describe('the optimistic-concurrency experiment (base 5 ms, cap 2000 ms, network 10 ms)', () => {
  const aws: BackoffStrategy[] = ['exponential', 'full-jitter', 'equal-jitter', 'decorrelated-jitter'];
  const params = { baseMs: 5, capMs: 2000, seed: 1 };
  const totals = Object.fromEntries(aws.map((s) => [s, { calls: 0, time: 0 }]));
  for (let clients = 10; clients <= 190; clients += 20) {
    for (const s of aws) {
      const r = occExperiment(s, clients, params);
      totals[s].calls += r.calls;
      totals[s].time += r.completionMs;
    }
  }

  it('no-jitter exponential is worst in calls and in completion time', () => {
    for (const s of aws.slice(1)) {
      expect(totals.exponential.calls).toBeGreaterThan(totals[s].calls);
      expect(totals.exponential.time).toBeGreaterThan(totals[s].time);
    }
  });

  it('full and equal jitter make the fewest calls', () => {
    const ranked = [...aws].sort((a, b) => totals[a].calls - totals[b].calls);
    expect(ranked.slice(0, 2).sort()).toEqual(['equal-jitter', 'full-jitter']);
  });

  it('without jitter every round has exactly one winner: n(n+1)/2 calls', () => {
    expect(occExperiment('exponential', 10, params).calls).toBe(55);
    expect(occExperiment('exponential', 190, params).calls).toBe(18145);
  });
});

describe('a lesson table built for more clients serves a smaller herd', () => {
  it('gives the same herd as computing the hashes', () => {
    const p: HerdParams = { clients: 300, strategy: 'lesson-sha256', backoff: { baseMs: 1, capMs: 1, seed: 0 }, outageMs: 2000, acceptPerSecond: 50, maxAttempts: 8, bucketMs: 250 };
    const big = lessonDelayTable(1000, 8);
    const a = simulateHerd(p, big);
    const b = simulateHerd(p);
    expect(Array.from(a.arrivals)).toEqual(Array.from(b.arrivals));
    expect(a.totalAttempts).toBe(b.totalAttempts);
  });
});
