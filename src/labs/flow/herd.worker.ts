/// <reference lib="webworker" />
import { lessonDelayTable, simulateHerd, type HerdResult } from '../../sim/flow/herd';
import type { HerdSettings } from '../../store/flowStore';

/**
 * Computes the herd plot off the main thread, so dragging the client slider never blocks input
 * (100,000 clients × 8 attempts × several strategies is tens of milliseconds). Messages:
 * in `{ id, settings }`, out `{ id, results }` (typed arrays transferred) or `{ id, error }`.
 * The lesson's delay table is kept here, grown only when a larger herd asks for it.
 */
let table: { clients: number; attempts: number; data: Uint16Array } | null = null;

self.onmessage = (e: MessageEvent<{ id: number; settings: HerdSettings }>) => {
  const { id, settings: h } = e.data;
  try {
    const results: HerdResult[] = h.strategies.map((strategy) => {
      let lesson: Uint16Array | undefined;
      if (strategy === 'lesson-sha256') {
        if (!table || table.attempts !== h.maxAttempts || table.clients < h.clients) table = { clients: h.clients, attempts: h.maxAttempts, data: lessonDelayTable(h.clients, h.maxAttempts) };
        lesson = table.data;
      }
      return simulateHerd(
        { clients: h.clients, strategy, backoff: { baseMs: h.baseMs, capMs: h.capMs, seed: h.seed }, outageMs: h.outageMs, acceptPerSecond: h.acceptPerSecond, maxAttempts: h.maxAttempts, bucketMs: h.bucketMs },
        lesson,
      );
    });
    (self as unknown as Worker).postMessage({ id, results }, results.flatMap((r) => [r.arrivals.buffer, r.accepted.buffer]));
  } catch (err) {
    (self as unknown as Worker).postMessage({ id, error: (err as Error).message });
  }
};
