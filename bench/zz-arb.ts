import fc from 'fast-check';
import { flowScenarioArb } from '../src/sim/flow/__tests__/flowArb';
import { oracleReplayFlow } from '../oracle';
import { replay } from '../src/sim/engine';
import { flowModel } from '../src/sim/flow';
const xs = fc.sample(flowScenarioArb, { numRuns: 500, seed: 1 });
let t = performance.now(); let steps = 0; let max = 0;
for (const s of xs) { const n = oracleReplayFlow(s).steps.length; steps += n; max = Math.max(max, n); }
console.log('old', performance.now() - t, steps / xs.length, max); t = performance.now();
for (const s of xs) replay(flowModel, s);
console.log('new', performance.now() - t);
