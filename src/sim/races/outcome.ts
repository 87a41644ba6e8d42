import type { ClientState, RacesOutcome, RacesState, RequestOutcome, RequestState } from './types';

/** The outcome of the races model: per request, plus counts. Works on a view or the mutable state. */

function toOutcome(r: RequestState): RequestOutcome {
  const o = baseOutcome(r);
  if (r.op === undefined) return o;
  if (r.retriedAs !== undefined) o.retriedAs = r.retriedAs;
  if (r.retryOf !== undefined) o.retryOf = r.retryOf;
  if (r.server.opExecutions !== undefined) o.opExecutions = r.server.opExecutions;
  return o;
}

function baseOutcome(r: RequestState): RequestOutcome {
  return {
    requestId: r.id,
    key: r.key,
    method: r.method,
    state: r.client.state,
    reason: r.client.reason,
    rule: r.client.rule,
    atMs: r.client.atMs,
    finalResponse: r.server.responseSentAt !== null,
    responseFate: r.client.responseFate,
    cancelSignal: r.client.cancelSignal,
    serverState: r.server.state,
    workEndedAtMs: r.server.workEndedAt,
    isError: r.client.isError,
  };
}

/** Outcome of a races state (also used by the UI for the state at the playhead). */
export function racesOutcome(state: { readonly requests: readonly RequestState[]; readonly ledger?: RacesState['ledger'] }): RacesOutcome {
  const requests = state.requests.map(toOutcome);
  const states: Partial<Record<ClientState, number>> = {};
  let finalResponses = 0;
  let cancelSignals = 0;
  let workInFlight = 0;
  let lastWorkEndedAtMs: number | null = null;
  let lateResponsesDropped = 0;
  for (const r of state.requests) {
    states[r.client.state] = (states[r.client.state] ?? 0) + 1;
    if (r.server.responseSentAt !== null) finalResponses++;
    if (r.client.cancelSignal !== 'none') cancelSignals++;
    if (r.method === 'tools/call') {
      if (r.server.state === 'working') workInFlight++;
      if (r.server.workEndedAt !== null) lastWorkEndedAtMs = Math.max(lastWorkEndedAtMs ?? 0, r.server.workEndedAt);
    }
    if (r.client.responseFate === 'ignored-late') lateResponsesDropped++;
  }
  const summary: RacesOutcome['summary'] = { requests: requests.length, states, finalResponses, cancelSignals, workInFlight, lastWorkEndedAtMs, lateResponsesDropped };
  if (state.ledger !== undefined) {
    let executions = 0;
    for (const name of Object.keys(state.ledger)) executions += state.ledger[name].executions;
    summary.sideEffectExecutions = executions;
  }
  return { requests, summary };
}

