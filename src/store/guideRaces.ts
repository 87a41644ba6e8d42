import type { Exercise } from './guide';

/**
 * The Races lab's guided path (issue 27, item 2): ordered exercises taken from the lesson's own
 * checklist ("La lección está completa cuando estas declaraciones son ciertas", lesson
 * "Confiabilidad, cancelación y control de flujo de los MCP") and its production failure table.
 * Data beside the built-ins (`public/scenarios/races/`), so the languages issue (25) translates
 * these words with the rest. Each goal is read from the run (the outcome at the playhead or after
 * the last step, the invariants), never from a click.
 */
export const RACES_GUIDE: readonly Exercise[] = [
  {
    id: 'cancel-wins',
    scenario: 'A-cancel-then-complete',
    title: 'A cancellation that arrives first suppresses the response',
    task: 'In scenario A the user cancels at 300 ms and the work would finish at 500 ms. Press → (or Step) until the server has stopped the work.',
    hints: [
      'The cancel needs 20 ms to cross the wire: watch the playhead pass 320 ms.',
      'The Outcome panel\'s "At the playhead" column says "cancelled" on the Server line when it has happened.',
    ],
    goal: { at: 'playhead', requests: { '1': { serverState: 'cancelled' } } },
    learned: 'The server accepted the cancellation and sends no response: "Cancellation before completion suppresses the final response" (the lesson\'s checklist).',
  },
  {
    id: 'completion-wins',
    scenario: 'A-cancel-then-complete',
    title: 'Let the completion win',
    task: 'Drag the client\'s cancel (the handle at 300 ms on the client lane) to the right, past the completion — the result leaves at 500 ms and takes 20 ms to arrive.',
    hints: [
      'Focus the cancel handle and press → to move it 10 ms at a time, or drag it with the pointer.',
      'Anywhere after 520 ms the response reaches the client before the user gives up.',
    ],
    goal: { at: 'final', requests: { '1': { state: 'completed' } } },
    learned: 'Same events, another order, another outcome: the call completes and the late cancel changes nothing. A race is decided by what arrives first.',
  },
  {
    id: 'http-signal',
    scenario: 'A-cancel-then-complete',
    title: 'Cancel on Streamable HTTP',
    task: 'Back to A (Reset restores it). Switch the transport to Streamable HTTP in Settings and look at the cancel signal.',
    hints: ['Settings → Transport → Streamable HTTP.', 'On HTTP under 2026-07-28 the client closes the request\'s response stream; no notification is POSTed.'],
    goal: { at: 'final', requests: { '1': { state: 'cancelled', cancelSignal: 'stream-close' } } },
    learned: '"Streamable HTTP cancellation closes the request stream and sends no cancellation POST" (the lesson\'s checklist; MCP basic/transports).',
  },
  {
    id: 'late-cancel',
    scenario: 'B-complete-then-cancel',
    title: 'A late cancel must not turn into success',
    task: 'In scenario B the response is already on the wire when the user presses Stop. Switch on the broken policy clientNeverSettles and find what the client now shows.',
    hints: ['Settings → Broken policies → clientNeverSettles (“the client sends its cancellation but never settles its own call”).', 'The call ends "completed": the user pressed Stop, yet sees success. Two invariants break.'],
    goal: { at: 'final', requests: { '1': { state: 'completed' } }, violates: ['cancel-settles'] },
    learned: '"Complete before cancel keeps the response and ignores the late cancel" — on the server. The client, having cancelled, must settle as cancelled and drop what arrives late.',
  },
  {
    id: 'maximum-fixed',
    scenario: 'C-progress-idle-maximum',
    title: 'Progress resets the idle timeout, never the maximum',
    task: 'Scenario C ends at its 2000 ms maximum although progress keeps coming. Switch on the broken policy progressResetsMaximum and watch the call outlive it.',
    hints: ['Settings → Broken policies → progressResetsMaximum (“progress also pushes the maximum deadline out”).', 'The invariants panel names the broken rule: the maximum deadline must stay fixed.'],
    goal: { at: 'final', violates: ['maximum-deadline-fixed'] },
    learned: '"Progress can reset the idle timeout but never the maximum timeout" (the lesson\'s checklist): hung work that reports progress would otherwise live forever.',
  },
  {
    id: 'twice',
    scenario: 'R1-broken-stream-reissue',
    title: 'A new id runs the mutation again',
    task: 'In R1 the stream breaks after send_invoice ran; the client re-issues it with a new id. Switch on idempotencyKeyOmitted (the key is left out) and count the invoices.',
    hints: ['Settings → Broken policies → idempotencyKeyOmitted.', 'The summary\'s side-effect executions go from 1 to 2.'],
    goal: { at: 'final', summary: { sideEffectExecutions: 2 } },
    learned: '"A new JSON-RPC id alone executes the mutation again" (the lesson\'s checklist): only an idempotency key lets the server answer the re-issue with the stored result.',
  },
];
