import { oneStepMethods, type CoreContext, type CoreModel } from '../core';
import type { Model, ScriptedEvent, Step } from '../types';
import type { RacesConfig, RacesEvent } from './schema';
import { RANK, type RacesOutcome, type RacesState, type RacesTimer } from './types';
import { byKey, initialCore, thaw, viewOf, type RacesCore } from './state';
import { clientCancel, clientDisconnect, clientInject, clientKeepalive, clientProgress, clientResponse, clientServerCancel, clientStart, deadline } from './client';
import { serverCancelNotification, serverReceive, serverStreamClose, serverWorkEvent, writeResponse } from './server';
import { clientHopError, hopDeadline } from './mechanics/hop';
import { responseWrite } from './mechanics/writeWindow';
import { clientInputResponse, serverInputRequired } from './retry';
import { RACES_ENTITY_INVARIANTS, RACES_INVARIANTS } from './invariants';
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

function applyScripted(state: RacesCore, event: ScriptedEvent, ctx: Ctx): void {
  const ev = event as unknown as RacesEvent;
  switch (ev.kind) {
    case 'start':
      return clientStart(state, ev, ctx);
    case 'cancel':
      return clientCancel(state, ev, ctx);
    case 'disconnect':
      return clientDisconnect(state, ev, ctx);
    case 'inject':
      return clientInject(state, ev, ctx);
    case 'input-response':
      return clientInputResponse(state, ev, ctx);
    case 'input-required':
      return serverInputRequired(state, ev, ctx);
    default:
      return serverWorkEvent(state, ev, ctx);
  }
}

function applyTimer(state: RacesCore, t: RacesTimer, ctx: Ctx): void {
  switch (t.kind) {
    case 'deadline.max':
      return deadline(state, t.key, 'max', ctx);
    case 'deadline.idle':
      return deadline(state, t.key, 'idle', ctx);
    case 'arrive.request':
      return serverReceive(state, t.key, ctx);
    case 'arrive.cancel':
      return serverCancelNotification(state, t.message, t.posted, ctx);
    case 'arrive.raw':
      return serverCancelNotification(state, t.message, false, ctx);
    case 'arrive.stream-close':
      return serverStreamClose(state, t.key, t.cause, ctx);
    case 'arrive.progress':
      return clientProgress(state, t.key, t.progress, ctx);
    case 'arrive.keepalive':
      return clientKeepalive(state, t.key, ctx);
    case 'arrive.response':
      return clientResponse(state, t.key, t.ok, ctx, t.inputRequired === true);
    case 'arrive.server-cancel':
      return clientServerCancel(state, t.key, ctx);
    case 'deadline.hop':
      return hopDeadline(state, t.key, t.which, ctx);
    case 'arrive.hop-error':
      return clientHopError(state, t.key, ctx);
    case 'write.response':
      return responseWrite(state, t.key, ctx, writeResponse);
  }
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
