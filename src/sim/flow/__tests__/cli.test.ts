import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { main } from '../../../cli/replay';
import { FLOW_SCENARIO_DIR, loadFlowScenarios } from './helpers';

describe('npm run replay on flow scenarios uses the flow model', () => {
  for (const { file } of loadFlowScenarios()) {
    it(`${file}: every expectation met, exit 0, every wire message schema-valid`, () => {
      const r = main([path.join(FLOW_SCENARIO_DIR, file), '--expect']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.scenario.lab).toBe('flow');
      expect(doc.wire.schemaInvalid).toBe(0);
      expect(doc.expectations.every((e: { met: boolean }) => e.met)).toBe(true);
    });
  }

  it('a --config override that breaks an expectation exits 3; F1 opens on the lesson policy (peak 1), unbounded reports 5900', () => {
    const file = path.join(FLOW_SCENARIO_DIR, 'F1-stalled-subscriber.json');
    expect(JSON.parse(main([file]).stdout).summary.peakDepth).toBe(1);
    expect(JSON.parse(main([file, '--config', '{"policy": "unbounded"}']).stdout).summary.peakDepth).toBe(5900);
    const r = main([path.join(FLOW_SCENARIO_DIR, 'R1-coalesce-one-token.json'), '--expect', '--config', '{"capacityEvents": 2}']);
    expect(r.code).toBe(3);
  });
});
