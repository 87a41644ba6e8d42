/**
 * The faults of a chaos run, as plain data (printed with the seed, carried in share links).
 *
 * The kinds come from the retry-storm postmortem's chaos list (混沌测试场景, shared/seeds/
 * postmortem-retry-storm.zh.txt): upstream latency drawn from 500 ms–5 s, 10 % of connections
 * reset, forged cancellation signals, a partition between two layers, quota exhaustion — plus the
 * ledger lesson's duplicate dispatch (one call delivered twice). Every time is virtual (ms).
 */
import { randomInt } from '../rng';
import type { Json, ScriptedEvent } from '../types';

/** The postmortem's upstream latency range: 500 ms–5 s (模拟OpenAI API 500ms~5s随机延迟). */
export const UPSTREAM_LATENCY_MS = { min: 500, max: 5000 } as const;
/** The postmortem's share of connections reset: 10 % (强制中断10%的TCP连接). */
export const CONNECTION_RESET_RATE = 0.1;

/** Kinds of fault, in the postmortem's order, then the ledger's duplicate dispatch. */
export const FAULT_KINDS = ['upstream-latency', 'connection-reset', 'forged-cancel', 'partition', 'quota-exhausted', 'duplicate-dispatch'] as const;
/** A fault kind. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * One fault of a run. `target` names what it hits (a request id, a connection, a token, a layer
 * pair); `atMs` when it strikes; `durationMs` how long it lasts (latency, partition) — all in ms.
 * `effect` says in words how the scenario was changed (the events added or moved, the config set).
 */
export interface Fault {
  kind: FaultKind;
  target: string;
  atMs?: number;
  durationMs?: number;
  effect: string;
}

/** A faulted scenario's change set: what each fault did, in the order drawn. */
export interface FaultPlan {
  /** The chaos seed the plan was drawn from (32-bit unsigned). */
  seed: number;
  faults: Fault[];
}

/** Draws a latency from the postmortem's 500 ms–5 s range (inclusive, integer ms). */
export function drawLatencyMs(random: () => number): number {
  return randomInt(random, UPSTREAM_LATENCY_MS.min, UPSTREAM_LATENCY_MS.max);
}

/** True with probability `p` (one draw). */
export function chance(random: () => number, p: number): boolean {
  return random() < p;
}

/** One element of a non-empty list, drawn uniformly. */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[randomInt(random, 0, items.length - 1)];
}

/** The latest scripted time of `events` (0 when empty), ms. */
export function lastAtMs(events: readonly ScriptedEvent[]): number {
  let last = 0;
  for (const e of events) if (e.at > last) last = e.at;
  return last;
}

/** An event id not yet used in `events`: `chaos-<name>`, then `chaos-<name>-2`, … */
export function freshId(events: readonly ScriptedEvent[], name: string): string {
  const used = new Set(events.map((e) => e.id));
  let id = `chaos-${name}`.slice(0, 60);
  for (let n = 2; used.has(id); n++) id = `chaos-${name}-${n}`.slice(0, 64);
  return id;
}

/** `JSON.stringify` of an id (how the labs key requests). */
export function keyOf(id: Json | undefined): string {
  return JSON.stringify(id ?? null);
}

/** A one-line description of a fault, e.g. `upstream-latency on 1 at 150 ms for 2300 ms — …`. */
export function describeFault(f: Fault): string {
  const at = f.atMs === undefined ? '' : ` at ${f.atMs} ms`;
  const dur = f.durationMs === undefined ? '' : ` for ${f.durationMs} ms`;
  return `${f.kind} on ${f.target}${at}${dur} — ${f.effect}`;
}

/** What a lab's fault function returns: the changed events and config and the faults applied. */
export interface Faulted {
  events: ScriptedEvent[];
  config: Record<string, Json>;
  faults: Fault[];
}

/** A scenario's config as the fault functions read it. */
export type Cfg = Record<string, Json>;

/** `v` when it is a JSON object, else `{}`. */
export const obj = (v: Json | undefined): Cfg => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Cfg) : {});

/** The events with each matching one moved `byMs` later (capped at the schema's 1e9 ms). */
export function shiftWhere(events: ScriptedEvent[], match: (e: ScriptedEvent) => boolean, byMs: number): ScriptedEvent[] {
  return events.map((e) => (match(e) ? { ...e, at: Math.min(1_000_000_000, e.at + byMs) } : e));
}
