import { oneStepMethods, type CoreContext, type CoreModel } from '../core';
import type { Model, ScriptedEvent, Step } from '../types';
import type { RacesConfig, RacesEvent } from './schema';
import { RANK, type RacesOutcome, type RacesState, type RacesTimer, type RequestState } from './types';
import { byKey, initialCore, thaw, viewOf, type RacesCore } from './state';
import { clientCancel, clientDisconnect, clientInject, clientKeepalive, clientProgress, clientResponse, clientServerCancel, clientStart, deadline } from './client';
import { serverCancelNotification, serverReceive, serverStreamClose, serverWorkEvent, writeResponse } from './server';
import { clientHopError, hopDeadline } from './mechanics/hop';
import { responseWrite } from './mechanics/writeWindow';
import { clientInputResponse, serverInputRequired } from './retry';
import { RACES_ENTITY_INVARIANTS, RACES_INVARIANTS, racesInvariantsSurelyHold, racesTouchedSurelyHold } from './invariants';
import { racesOutcome } from './outcome';

export * from './types';
export { RACES_INVARIANTS, RACES_ENTITY_INVARIANTS } from './invariants';
export { racesOutcome } from './outcome';
export type { RacesCore } from './state';

/**
 * The request lifecycle model: one MCP client and one server exchanging `tools/call` and
 * `subscriptions/listen` requests over stdio or Streamable HTTP, under revision 2026-07-28 or
 * 2025-11-25, with idle and maximum timeouts, progress, cancellation and the races between them.
 * Rules are in `client.ts` and `server.ts` (cited ids in `rules.ts`, `../../shared/SPEC-NOTES.md`);
 * the mutable state in `state.ts`; invariants in `invariants.ts`; the outcome in `outcome.ts`.
 */

type Ctx = CoreContext<RacesTimer>;

const TIE_RULE = [
  { rank: RANK.maxDeadline, name: 'maximum deadline', why: 'Deadlines are inclusive, and the maximum wins when both are due.' },
  { rank: RANK.idleDeadline, name: 'idle deadline', why: 'An idle deadline fires before anything that arrives in the same millisecond.' },
  { rank: RANK.arrival, name: 'message arrival', why: 'Messages already on the wire land before anyone acts, in the order they were sent.' },
  { rank: RANK.scripted, name: 'scripted action', why: 'Actions by the client, server and worker run last, in the scenario\'s list order (reorder them to change who wins).' },
];

/** The client's and the server's scripted actions (every other kind is the server's work: `serverWorkEvent`). */
const ON_SCRIPTED: { [K in RacesEvent['kind']]?: (state: RacesCore, ev: Extract<RacesEvent, { kind: K }>, ctx: Ctx) => void } = { start: clientStart, cancel: clientCancel, disconnect: clientDisconnect, inject: clientInject, 'input-response': clientInputResponse, 'input-required': serverInputRequired };

function applyScripted(state: RacesCore, event: ScriptedEvent, ctx: Ctx): void {
  const ev = event as unknown as RacesEvent;
  // The server's work events first, without a table lookup (most scripted events are progress).
  if (ev.kind === 'progress' || ev.kind === 'keepalive' || ev.kind === 'complete' || ev.kind === 'error' || ev.kind === 'server-cancel') return serverWorkEvent(state, ev, ctx);
  const on = ON_SCRIPTED[ev.kind] as ((state: RacesCore, ev: RacesEvent, ctx: Ctx) => void) | undefined;
  if (on !== undefined) return on(state, ev, ctx);
  serverWorkEvent(state, ev as unknown as Parameters<typeof serverWorkEvent>[1], ctx);
}

/** What each timer or delivery does when it fires, by kind (types.ts `RacesTimer`). */
const ON_TIMER: { [K in RacesTimer['kind']]: (state: RacesCore, t: Extract<RacesTimer, { kind: K }>, ctx: Ctx) => void } = {
  'deadline.max': (state, t, ctx) => deadline(state, t.key, 'max', ctx),
  'deadline.idle': (state, t, ctx) => deadline(state, t.key, 'idle', ctx),
  'arrive.request': (state, t, ctx) => serverReceive(state, t.key, ctx),
  'arrive.cancel': (state, t, ctx) => serverCancelNotification(state, t.message, t.posted, ctx),
  'arrive.raw': (state, t, ctx) => serverCancelNotification(state, t.message, false, ctx),
  'arrive.stream-close': (state, t, ctx) => serverStreamClose(state, t.key, t.cause, ctx),
  'arrive.progress': (state, t, ctx) => clientProgress(state, t.i, t.progress, ctx),
  'arrive.keepalive': (state, t, ctx) => clientKeepalive(state, t.key, ctx),
  'arrive.response': (state, t, ctx) => clientResponse(state, t.key, t.ok, ctx, t.inputRequired === true),
  'arrive.server-cancel': (state, t, ctx) => clientServerCancel(state, t.key, ctx),
  'deadline.hop': (state, t, ctx) => hopDeadline(state, t.key, t.which, ctx),
  'arrive.hop-error': (state, t, ctx) => clientHopError(state, t.key, ctx),
  'write.response': (state, t, ctx) => responseWrite(state, t.key, ctx, writeResponse),
};

function applyTimer(state: RacesCore, t: RacesTimer, ctx: Ctx): void {
  if (t.kind === 'arrive.progress') return clientProgress(state, t.i, t.progress, ctx);
  (ON_TIMER[t.kind] as (state: RacesCore, t: RacesTimer, ctx: Ctx) => void)(state, t, ctx);
}

/**
 * The races model on the checkpointed core: mutable `RacesCore` in the hot loop, frozen
 * `RacesState` views in traces and checkpoints. Entity kind: 'request' (id = instance key).
 */
export const racesCore: CoreModel<RacesConfig, RacesCore, RacesState, RacesOutcome, RacesTimer> = {
  lab: 'races',
  tieRule: TIE_RULE,
  scriptedRank: () => RANK.scripted,
  init: (config) => initialCore(config),
  applyScripted,
  applyTimer,
  touched: (state) => state.touched,
  entity: (state, _kind, id) => byKey(state, id),
  invariants: RACES_ENTITY_INVARIANTS,
  surelyHolds: (_kind, r: RequestState, at) => racesInvariantsSurelyHold(r, at),
  touchedSurelyHold: racesTouchedSurelyHold,
  view: viewOf,
  thaw,
  outcome: (state) => racesOutcome(state),
};

/**
 * The races lab model (request lifecycle). `replay(racesModel, …)` runs it on the checkpointed core
 * (`core`); the one-step methods keep the historic immutable interface (each call copies the state,
 * so they are for tests and tools, not for the hot loop).
 */
export const racesModel: Model<RacesConfig, RacesState, RacesOutcome, RacesTimer> & { core: typeof racesCore } = {
  lab: 'races',
  tieRule: TIE_RULE,
  scriptedRank: () => RANK.scripted,
  init: (config) => viewOf(initialCore(config)),
  ...oneStepMethods(thaw, viewOf, applyScripted, applyTimer),
  outcome: (state) => racesOutcome(state),
  invariants: RACES_INVARIANTS,
  core: racesCore,
};

/** Exposed for tests: the step type of a races trace. */
export type RacesStep = Step<RacesState>;
