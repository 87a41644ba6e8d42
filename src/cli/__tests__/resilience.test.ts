import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../replay';

const read = (p: string) => readFileSync(p, 'utf8');

describe('CLI replay of resilience scenarios', () => {
  it('prints the mechanism outcome, schema checks and only that mechanism\'s invariants; --expect passes', () => {
    for (const file of ['T1-abort-before-task-id', 'T2-cancel-after-completion', 'B2-retry-composition', 'S3-gateway-receipt']) {
      const ok = main([`public/scenarios/resilience/${file}.json`, '--expect'], read);
      expect(ok.code, file).toBe(0);
      expect(JSON.parse(ok.stdout).expectations.every((e: { met: boolean }) => e.met)).toBe(true);
    }
    const r = main(['public/scenarios/resilience/T2-cancel-after-completion.json', '--config', '{"revision":"2025-11-25"}'], read);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.requests[0]).toMatchObject({ key: 'task', status: 'completed', statusAtMs: 5000, ack: 'error-32602' });
    expect(doc.invariants.map((i: { name: string }) => i.name)).toEqual(['terminal-never-changes', 'abort-not-lost', 'task-cancelled-with-tasks-cancel', 'handle-after-durable', 'task-only-to-declaring-client', 'input-requests-declared', 'task-handle-resolves', 'poll-interval-respected']);
    expect(doc.wire.filter((w: { schema?: string }) => w.schema?.startsWith('invalid'))).toEqual([]);
    expect(doc.wire.length).toBeGreaterThan(5);
  });

  it('exit 3 when an expectation is not met (a config that breaks the lesson)', () => {
    const r = main(['public/scenarios/resilience/S1-three-layers.json', '--expect', '--config', '{"fixes":{"retryAtOneLayerOnly":true}}'], read);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).summary.upstreamAttempts).toBe(4);
  });
});
