import { describe, expect, it } from 'vitest';
import { headerText } from '../../mcp';
import type { Json } from '../../types';
import { loadScenarios, run } from './helpers';

/**
 * Issue 23 item 2 in the races lab (the audit of the lab against the 2026-07-28 text): the `http`
 * line against the headers, the listen stream's acknowledgement and teardown, and the elicitation
 * capability of MRTR.
 */

const effects = (t: ReturnType<typeof run>) => t.steps.flatMap((s) => s.effects);

describe('the http line of a 2026-07-28 POST lists the headers the wire panel lists', () => {
  it('every client POST of every built-in, run over 2026-07-28 HTTP, names exactly its headers field', () => {
    let checked = 0;
    for (const { scenario } of loadScenarios()) {
      const t = run(scenario, { transport: 'streamable-http', revision: '2026-07-28' });
      for (const e of effects(t)) {
        if (e.from !== 'client' || e.headers === undefined) continue;
        expect(e.http, `${scenario.id}: ${JSON.stringify(e.message as Json)}`).toContain(`POST /mcp (${headerText(e.headers)})`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('the bug mcpNameHeaderOmitted drops Mcp-Name from both', () => {
    const t = run(loadScenarios().find((s) => s.scenario.id === 'M1-mrtr-confirm-transfer')!.scenario, { policy: { mcpNameHeaderOmitted: true } });
    const first = effects(t).find((e) => e.from === 'client' && e.headers !== undefined)!;
    expect(first.headers).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' });
    expect(first.http).toBe("POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tools/call) → 200 Content-Type: text/event-stream; this request's SSE response stream opens");
  });
});
