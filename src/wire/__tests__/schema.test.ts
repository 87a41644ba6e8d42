import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { checkEffects, checkMessage } from '../schemaCheck';
import tasksExamples from '../ext-tasks/examples.json' with { type: 'json' };
import { loadScenarios, run } from '../../sim/races/__tests__/helpers';
import type { RacesTrace } from '../../sim/races';
import type { Revision } from '../../sim/mcp';
import { cancelledNotification, callToolRequest, progressNotification, toolResultResponse, listenRequest, listenResultResponse, errorResponse } from '../../sim/mcp';

const here = path.dirname(fileURLToPath(import.meta.url));

function methodOf(trace: RacesTrace) {
  const final = trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial;
  return (key: string | undefined) => (key === undefined ? undefined : final.requests[final.indexOf[key]]?.method);
}

const POLICIES = ['progressResetsMaximum', 'idleTimeoutOnly', 'maximumCheckedOnProgress', 'progressTokenOmitted', 'respondAfterCancel', 'clientNeverSettles', 'timeoutWithoutCancel', 'httpPostsCancel', 'retrySameId', 'idempotencyKeyOmitted', 'mcpNameHeaderOmitted'];

describe('every emitted MCP message validates against the official schema of its revision', () => {
  for (const { file, scenario } of loadScenarios()) {
    it(`${file} under both revisions, both transports and every policy`, () => {
      let checked = 0;
      for (const revision of ['2026-07-28', '2025-11-25'] as Revision[]) {
        for (const transport of ['stdio', 'streamable-http']) {
          for (const policy of [null, ...POLICIES]) {
            const t = run(scenario, { revision, transport, ...(policy ? { policy: { [policy]: true } } : {}) });
            const effects = t.steps.flatMap((s) => s.effects);
            for (const c of checkEffects(revision, effects, methodOf(t))) {
              if (c.effect.malformed) continue;
              expect({ def: c.def, errors: c.errors, message: c.effect.message }).toEqual({ def: c.def, errors: [], message: c.effect.message });
              checked++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('the deliberately malformed cancellations in scenario E fail the schema (so the check can fail)', () => {
    const e = loadScenarios().find((s) => s.scenario.id === 'E-invalid-cancels')!.scenario;
    const t = run(e);
    const malformed = t.steps.flatMap((s) => s.effects).filter((x) => x.malformed);
    const unknownId = malformed.filter((m) => JSON.stringify(m.message).includes('"requestId":99'));
    expect(malformed).toHaveLength(6);
    for (const m of malformed) {
      const result = checkMessage('2026-07-28', m.message!);
      // A cancel for an unknown id is well-formed; it is ignored for another reason.
      expect(result.valid).toBe(unknownId.includes(m));
    }
  });

  it('rejects messages that break the revision-specific rules', () => {
    // 2026-07-28 tools/call needs _meta with the protocol version and client capabilities.
    expect(checkMessage('2026-07-28', callToolRequest('2025-11-25', 1, 'x', null)).valid).toBe(false);
    expect(checkMessage('2026-07-28', callToolRequest('2026-07-28', 1, 'x', null)).valid).toBe(true);
    // 2026-07-28 results need resultType.
    expect(checkMessage('2026-07-28', toolResultResponse('2025-11-25', 1, 'ok', false), 'tools/call').valid).toBe(false);
    expect(checkMessage('2025-11-25', toolResultResponse('2025-11-25', 1, 'ok', false), 'tools/call').valid).toBe(true);
    // subscriptions/listen does not exist in 2025-11-25: only the generic envelope applies there.
    expect(checkMessage('2026-07-28', listenRequest('s')).def).toBe('SubscriptionsListenRequest');
    expect(checkMessage('2026-07-28', listenResultResponse('s'), 'subscriptions/listen').valid).toBe(true);
    expect(checkMessage('2026-07-28', errorResponse(1, -32603, 'boom')).valid).toBe(true);
    expect(checkMessage('2026-07-28', { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } }).valid).toBe(false);
  });

  it('progress and cancellation builders validate for any string or integer id, and fail for others', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer()), fc.double({ noNaN: true, noDefaultInfinity: true }), (id, progress) => {
        for (const rev of ['2026-07-28', '2025-11-25'] as Revision[]) {
          expect(checkMessage(rev, cancelledNotification(id, 'r')).valid).toBe(true);
          expect(checkMessage(rev, progressNotification(id, progress, null, null)).valid).toBe(true);
        }
      }),
      { numRuns: 200, seed: 3 },
    );
    for (const bad of [true, 1.5, null, [1], { a: 1 }]) {
      expect(checkMessage('2026-07-28', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: bad } }).valid).toBe(false);
    }
  });

  it('the vendored schemas are identical to ../shared/mcp-schema (when that folder is present)', () => {
    const shared = path.resolve(here, '../../../../shared/mcp-schema');
    if (!existsSync(shared)) return; // a clone outside the workplace has only the vendored copy
    for (const rev of ['2025-11-25', '2026-07-28']) {
      expect(readFileSync(path.join(here, `../mcp-schema/${rev}.schema.json`), 'utf8')).toBe(readFileSync(path.join(shared, `${rev}.schema.json`), 'utf8'));
    }
  });
});

describe('a response is checked against the result type of the method it answers (issue 24)', () => {
  const res = (result: unknown) => ({ jsonrpc: '2.0', id: 1, result }) as never;

  it('2026-07-28: a tools/call result without content no longer passes through InputRequiredResult', () => {
    const bare = checkMessage('2026-07-28', res({ resultType: 'complete' }), 'tools/call');
    expect(bare.valid).toBe(false);
    expect(bare.errors.some((e) => e.startsWith('result CallToolResult'))).toBe(true);
    expect(checkMessage('2026-07-28', res({ resultType: 'complete', content: [{ type: 'text', text: 'ok' }] }), 'tools/call').valid).toBe(true);
    // An MRTR answer is judged as InputRequiredResult, not as a tool result.
    expect(checkMessage('2026-07-28', res({ resultType: 'input_required', requestState: 'abc' }), 'tools/call').valid).toBe(true);
  });

  it('2025-11-25: an initialize result without serverInfo fails InitializeResult; the full one passes', () => {
    const partial = checkMessage('2025-11-25', res({ protocolVersion: '2025-11-25', capabilities: {} }), 'initialize');
    expect(partial.valid).toBe(false);
    expect(partial.errors.join(' ')).toMatch(/result InitializeResult/);
    expect(checkMessage('2025-11-25', res({ protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } }), 'initialize').valid).toBe(true);
  });

  it('2026-07-28 tasks/get results are checked against the tasks extension schema', () => {
    const task = { taskId: 't-1', status: 'completed', createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:01Z', ttlMs: null, result: { content: [], resultType: 'complete' } };
    const wrongType = checkMessage('2026-07-28', res({ ...task, resultType: 'task' }), 'tasks/get');
    expect(wrongType.valid).toBe(false);
    expect(wrongType.errors.join(' ')).toMatch(/tasks extension/);
  });

  it("2026-07-28 notifications/tasks (the extension's status notification) is checked against the extension's TaskStatusNotification", () => {
    // tasks.md#7, the extension page's own notification example (vendored by scripts/vendor-spec-examples.ts).
    const example = (tasksExamples as { blocks: Record<string, { label: string; json: Record<string, unknown> }> }).blocks['tasks.md#7'];
    expect(example.label).toBe('Notification:');
    expect(checkMessage('2026-07-28', example.json as never)).toMatchObject({ valid: true, errors: [] });
    const bad = checkMessage('2026-07-28', { ...example.json, params: { ...(example.json.params as object), status: 'done' } } as never);
    expect(bad.valid).toBe(false);
    expect(bad.errors.join(' ')).toMatch(/tasks extension TaskStatusNotification/);
  });

  it('a method with no known result type is checked by the envelope only', () => {
    expect(checkMessage('2025-11-25', res({ anything: 1 }), 'vendor/custom').valid).toBe(true);
  });
});
