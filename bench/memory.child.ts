/**
 * Child process of the memory bench: `node --expose-gc --import tsx bench/memory.child.ts <workload> <engine>`.
 * Prints one JSON line: peak heap used (sampled at every checkpoint for the seekable trace, else
 * before/after), heap retained after a GC with the result still referenced, and the peak RSS of
 * this process (`process.resourceUsage().maxRSS`). "Heap" counts V8's heap plus its external
 * memory (ArrayBuffers), where the seekable trace keeps its typed per-step columns.
 */
import { getHeapStatistics } from 'node:v8';
import { oracleReplayRaces } from '../oracle';
import { replay } from '../src/sim/replay';
import { racesCore, racesModel } from '../src/sim/races';
import { SeekableTrace } from '../src/sim/trace';
import { issueWorkload, type Workload } from './engine.bench';

const [workload, engine] = process.argv.slice(2) as [Workload, string];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const scenario = issueWorkload(workload);
gc();
const heapUsed = () => {
  const h = getHeapStatistics();
  return h.used_heap_size + h.external_memory;
};
const baseline = heapUsed();
let peak = baseline;
const sample = () => {
  const used = heapUsed();
  if (used > peak) peak = used;
};
let kept: unknown;
if (engine === 'new seekable') kept = SeekableTrace.replay(racesCore, scenario, { onCheckpoint: sample });
else if (engine === 'new fast path') kept = replay(racesModel, scenario, { keep: 'effects' });
else if (engine === 'old effects') kept = oracleReplayRaces(scenario, 'effects');
else if (engine === 'new steps') kept = replay(racesModel, scenario, { keep: 'steps' });
else throw new Error(`unknown engine ${engine}`);
sample();
gc();
const retained = heapUsed();
console.log(JSON.stringify({ workload, engine, baselineHeapMB: baseline / 2 ** 20, peakHeapMB: peak / 2 ** 20, retainedHeapMB: retained / 2 ** 20, peakRssMB: process.resourceUsage().maxRSS / 1024, steps: (kept as { stepCount: number }).stepCount }));
