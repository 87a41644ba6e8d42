import { checkBoolean, checkNumber } from './validate';

/**
 * A durable task and the HTTP connection closing under it (the lesson: "No borre el estado de tarea
 * duradera cuando se cierra la conexión HTTP. La razón para crear una tarea es que su ciclo de
 * vida sobrevive a una solicitud y una conexión"; and its failure table "Task ack treated as final
 * cancellation … Poll the Task until a terminal status").
 *
 * Revision rules used (shared/SPEC-NOTES.md "Tasks" and "Streamable HTTP"; the spec text wins):
 * - both revisions: a task's state lives on the server, not in the connection; a client holding
 *   the task id finds it again with `tasks/get`;
 * - 2026-07-28: the server MUST NOT return the handle before the task is durably created; there
 *   is no stream resumption ("a broken stream loses the in-flight request; the client MUST re-issue
 *   it with a new request id") and `tasks/list` is removed — so a drop before the handle arrived
 *   leaves the client nothing to find the task by: it re-issues, and the first task runs orphaned;
 * - 2025-11-25: `tasks/list` exists, so the client can find the task the server created (this
 *   model assumes it can tell which listed task is its own, e.g. by its request metadata).
 * Pure: a closed-form timeline; times are virtual ms.
 */

/** Inputs of `simulateConnectionDrop`. */
export interface ConnectionDropInput {
  revision: '2026-07-28' | '2025-11-25';
  /** The server has durably created the task, ms after the request (request at 0). */
  createdAtMs: number;
  /** The response carrying the task handle reaches the client, ms (≥ createdAtMs). */
  handleAtMs: number;
  /** The HTTP connection closes, ms. */
  dropAtMs: number;
  /** The client is connected again and acts, ms (≥ dropAtMs). */
  reconnectAtMs: number;
  /** Work the task needs after it is created, ms. */
  workMs: number;
  /** The client's `tasks/get` interval, ms (> 0). */
  pollIntervalMs: number;
  /** The bug: the server deletes the task when the connection closes (default false). */
  deleteTaskOnDisconnect?: boolean;
}

/** What happened. */
export interface ConnectionDropResult {
  /** Whether the client held the task id when the connection dropped. */
  clientHadHandle: boolean;
  /** How the client got to a result: polling the id it held, listing tasks, or re-issuing the request. */
  recoveredBy: 'tasks/get' | 'tasks/list' | 're-issue';
  /** The original request was lost to the client (it had to send it again). */
  requestLost: boolean;
  /** Tasks started for the request (a deleted or orphaned one counts: its work began). */
  executions: number;
  /** Tasks that run with nobody holding their id. */
  orphanedTasks: number;
  /** Times of the client's `tasks/get` calls, the last one returning the result. */
  pollsAtMs: number[];
  /** When the client has the result. */
  resultAtMs: number;
  /** Invariants broken: one-execution-per-request. */
  violations: string[];
}

/**
 * The connection drops at `dropAtMs`. With the handle already held (dropAtMs ≥ handleAtMs) the
 * client polls `tasks/get` from `reconnectAtMs` every `pollIntervalMs` until the task (completing
 * at createdAtMs + workMs) is completed — unless the buggy server deleted it, when the first poll
 * fails and the client re-issues. Without the handle: under 2025-11-25 `tasks/list` at
 * `reconnectAtMs` finds it and polling goes on as above; under 2026-07-28 the client re-issues at
 * `reconnectAtMs` with a new request id: a second task is created createdAtMs later, its handle
 * arrives handleAtMs later, and the client polls it from one interval after that.
 * Throws a RangeError naming the field for negative times, a handle before creation, a reconnect
 * before the drop (or, listing under 2025-11-25, before the task exists), or a non-positive poll
 * interval. `executions` counts tasks started: 2 whenever the client re-issues.
 */
export function simulateConnectionDrop(input: ConnectionDropInput): ConnectionDropResult {
  if (input.revision !== '2026-07-28' && input.revision !== '2025-11-25') throw new RangeError(`revision: ${JSON.stringify(input.revision)} — use "2026-07-28" or "2025-11-25"`);
  const createdAt = checkNumber('createdAtMs', input.createdAtMs, { min: 0 });
  const handleAt = checkNumber('handleAtMs', input.handleAtMs, { min: createdAt });
  const dropAt = checkNumber('dropAtMs', input.dropAtMs, { min: 0 });
  const reconnectAt = checkNumber('reconnectAtMs', input.reconnectAtMs, { min: dropAt });
  const workMs = checkNumber('workMs', input.workMs, { min: 0 });
  const every = checkNumber('pollIntervalMs', input.pollIntervalMs, { min: Number.MIN_VALUE });
  const deletes = checkBoolean('deleteTaskOnDisconnect', input.deleteTaskOnDisconnect ?? false);
  const doneAt = createdAt + workMs;
  const hadHandle = dropAt >= handleAt;

  const pollUntil = (firstAt: number, completesAt: number): number[] => {
    const polls: number[] = [];
    let t = firstAt;
    for (;;) {
      polls.push(t);
      if (t >= completesAt) return polls;
      t += every;
    }
  };
  // the first task was created (the server got the request), so a re-issue starts the work twice
  const reissue = (at: number, firstPolls: number[], orphaned: number): ConnectionDropResult => {
    const created2 = at + createdAt;
    const handle2 = at + handleAt;
    const polls = firstPolls.concat(pollUntil(handle2 + every, created2 + workMs));
    return {
      clientHadHandle: hadHandle, recoveredBy: 're-issue', requestLost: true, executions: 2, orphanedTasks: orphaned,
      pollsAtMs: polls, resultAtMs: polls[polls.length - 1], violations: ['one-execution-per-request'],
    };
  };

  if (deletes && dropAt < doneAt) {
    // the task is gone: a tasks/get at reconnect (if the id is held) fails, then the client re-issues
    return reissue(reconnectAt, hadHandle ? [reconnectAt] : [], 0);
  }
  if (!hadHandle && input.revision === '2025-11-25' && reconnectAt < createdAt) {
    throw new RangeError(`reconnectAtMs: ${reconnectAt} is before the task exists (${createdAt}) — this model lists tasks once, at the reconnect`);
  }
  if (hadHandle || input.revision === '2025-11-25') {
    const polls = pollUntil(reconnectAt, doneAt);
    return {
      clientHadHandle: hadHandle, recoveredBy: hadHandle ? 'tasks/get' : 'tasks/list', requestLost: false, executions: 1, orphanedTasks: 0,
      pollsAtMs: polls, resultAtMs: polls[polls.length - 1], violations: [],
    };
  }
  return reissue(reconnectAt, [], 1);
}
