/**
 * Core types of the simulation engine. Everything here is plain data: a scenario goes in,
 * a trace comes out, and both survive `JSON.stringify` unchanged.
 *
 * Time is virtual and measured in integer milliseconds from the scenario's origin (0).
 * Nothing in `src/sim` reads the wall clock, the platform random generator, timers, the DOM or React.
 */

/** A JSON value as it appears in scenario files and on the wire. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Who acts. Each lab's schema narrows which actors may script which kinds. `proxy` sits between
 * client and server (flow lab), `upstream` is the API behind an MCP server (resilience lab), `db`
 * is a database connection (ledger lab; the connection is named by the event's own field).
 */
export type Actor = 'client' | 'wire' | 'proxy' | 'server' | 'upstream' | 'worker' | 'db';

/**
 * One scripted event of a scenario: something an actor does at virtual time `at` (integer ms).
 * `id` is unique inside the scenario and stable across edits, so drags and URLs can name it.
 * The remaining fields are the model's payload (validated by the lab's schema).
 */
export interface ScriptedEvent {
  id: string;
  at: number;
  actor: Actor;
  kind: string;
  /** Optional human label shown on the timeline instead of the generated one. Rendered as text. */
  label?: string;
  [field: string]: Json | undefined;
}

/**
 * A scenario: `{ lab, config, events[], seed }` plus descriptive text and the lesson's expected
 * outcomes. Round-trips through JSON, URLs, files and the CLI unchanged.
 */
export interface Scenario<C = Record<string, Json>> {
  format: 1;
  lab: string;
  id: string;
  title: string;
  summary?: string;
  seed: number;
  config: C;
  events: ScriptedEvent[];
  /** The lesson's outcomes for this scenario, under its own config and under named overrides. */
  expect?: Expectation[];
}

/**
 * An expected outcome, used by tests and shown in the UI ("the lesson says…").
 * `overrides` is merged (deeply, objects only) into the scenario's config before replaying.
 */
export interface Expectation {
  label: string;
  overrides?: Record<string, Json>;
  /** Per request (keyed by the JSON-encoded request id): a subset of the request outcome. */
  requests?: Record<string, Record<string, Json>>;
  /** A subset of the model's summary counts. */
  summary?: Record<string, Json>;
  /** Invariants that must be violated (broken policies) — an empty list means "none may be". */
  violates?: string[];
  /** Checks at a given virtual time: state of a request when the playhead is at `atMs`. */
  at?: { atMs: number; request: string; state: string }[];
}

/** What the engine pulls from its queue: a scripted event or a timer a model scheduled. */
export interface QueueEntry<T = unknown> {
  /** Virtual time in ms. */
  at: number;
  /** Tie rank: lower runs first at the same `at`. Scripted events use the model's `scriptedRank`. */
  rank: number;
  /** Insertion sequence: scripted events by scenario order, then timers in scheduling order. */
  seq: number;
  source: 'script' | 'timer';
  /** The scripted event (source 'script') or the model's timer payload (source 'timer'). */
  payload: T;
  /** Stable label for timers (e.g. `idle deadline #1`), or the scripted event id. */
  label: string;
  /** The actor the entry belongs to (lane). */
  actor: Actor;
  /** Handle used to cancel a timer; scripted entries have -1. */
  handle: number;
}

/** A wire effect: one JSON-RPC message or one HTTP-level action, as it leaves the sender. */
export interface WireEffect {
  type: 'wire';
  /** Virtual time the effect left its sender (ms). */
  at: number;
  from: 'client' | 'server';
  /** Transport the effect travels on. */
  transport: 'stdio' | 'streamable-http';
  /** The JSON-RPC message, when one is sent. */
  message?: Json;
  /** An HTTP action (POST, stream close, SSE comment) described as text; absent on stdio. */
  http?: string;
  /**
   * The MCP request headers of a 2026-07-28 Streamable HTTP POST (`MCP-Protocol-Version`,
   * `Mcp-Method`, `Mcp-Name`), by name; absent elsewhere. Source: 2026-07-28
   * `basic/transports/streamable-http` (Request Metadata).
   */
  headers?: Record<string, string>;
  /** True when the message is deliberately malformed (scripted by a faulty peer). */
  malformed?: boolean;
  /** Arrival time at the other side, if it arrives (ms). */
  arrivesAt?: number;
  /** Request this effect belongs to (JSON-encoded id), for lane placement and filtering. */
  requestKey?: string;
}

/** Something that did not change state, and why (the rule that says to ignore it). */
export interface Ignored {
  by: Actor;
  what: string;
  reason: string;
  rule?: string;
}

/** A named invariant that failed after a step. */
export interface Violation {
  invariant: string;
  message: string;
}

/** One step of a trace: the entry applied, the state after it and what it produced. */
export interface Step<S> {
  index: number;
  at: number;
  entry: Omit<QueueEntry, 'payload'> & { kind: string };
  /** The model state after this step (immutable; shares structure with its neighbours). */
  state: S;
  effects: WireEffect[];
  ignored: Ignored[];
  /** Short human explanation of what happened and why, citing a rule id where one applies. */
  why: string;
  rule?: string;
  violations: Violation[];
}

/** The result of `replay`: the steps in order plus the final outcome. */
export interface Trace<S, O> {
  scenario: Scenario;
  initial: S;
  steps: Step<S>[];
  outcome: O;
  /** Every invariant's result over the whole trace: first violation, or null when it held. */
  invariants: { name: string; description: string; firstViolation: { step: number; at: number; message: string } | null }[];
  /** Virtual time of the last step (ms), 0 for an empty trace. */
  endAt: number;
}

/** Context a model receives while applying one entry. */
export interface ApplyContext<T> {
  /** Current virtual time (ms). */
  readonly now: number;
  /** The scenario's seeded generator (deterministic; see `rng.ts`). */
  readonly random: () => number;
  /** Schedule a timer at absolute time `at` (ms, ≥ now) with tie `rank`; returns a handle. */
  schedule(at: number, rank: number, actor: Actor, label: string, payload: T): number;
  /** Cancel a timer by handle; cancelling an already fired or unknown handle does nothing. */
  cancel(handle: number): void;
  /** Emit a wire effect (its `at` is filled in with the current time). */
  emit(effect: Omit<WireEffect, 'type' | 'at'>): void;
  /** Record that something was ignored, with the reason and the rule id. */
  ignore(ignored: Ignored): void;
  /**
   * Set the step's human note (the last call wins) and the rule it cites. Pass a function to build
   * the text lazily: it is only called when the trace keeps per-step notes.
   */
  why(text: string | (() => string), rule?: string): void;
}

/** A named invariant: returns null when it holds, or a message naming what broke. */
export interface Invariant<S> {
  name: string;
  description: string;
  check(state: S, step: Step<S>): string | null;
}

/** What the engine (`core.ts`; the old loop in `oracle/engine.ts` too) asks of a model to order same-millisecond entries. */
export interface ModelTieRule {
  lab: string;
  /** Tie ranks, lowest first, with one line each explaining why (shown in the UI). */
  tieRule: { rank: number; name: string; why: string }[];
  /** Rank given to scripted events. */
  scriptedRank(event: ScriptedEvent): number;
}

/**
 * A model of one mechanism. Pure: `init` and `apply` never mutate their inputs and never read
 * anything but their arguments; the engine owns time and the queue.
 */
export interface Model<C, S, O, T = unknown> extends ModelTieRule {
  init(config: C, ctx: ApplyContext<T>): S;
  applyScripted(state: S, event: ScriptedEvent, ctx: ApplyContext<T>): S;
  applyTimer(state: S, payload: T, ctx: ApplyContext<T>): S;
  outcome(state: S, endAt: number): O;
  invariants: Invariant<S>[];
}
