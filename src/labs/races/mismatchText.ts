/** The lesson panel's words for an expectation mismatch (pure; `checkExpectation` gives the fields). */

const FIELD_WORDS: Record<string, string> = {
  state: 'ends',
  atMs: 'settles at',
  cancelSignal: 'cancellation signal is',
  finalResponse: 'gets a final response:',
  responseFate: 'response fate is',
  serverState: 'server ends',
  cancelSignals: 'cancellation signals',
  finalResponses: 'final responses',
  lastWorkEndedAtMs: 'the last work ends at',
  lateResponsesDropped: 'late responses dropped',
  states: 'terminal states',
  workInFlight: 'work still running',
};

function plain(value: unknown, field: string): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return /Ms$/.test(field) ? `${value} ms` : String(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length ? value.map((v) => plain(v, field)).join(', ') : 'none';
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k} ${plain(v, field)}`)
    .join(', ');
}

/**
 * One expectation mismatch in words: `requests["1"].state` / "completed" / "cancelled" →
 * `call 1 ends completed, not cancelled`.
 */
export function describeMismatch(m: { field: string; expected: unknown; actual: unknown }): string {
  const at = /^at (\d+) ms requests\[(.+)\]\.state$/.exec(m.field);
  if (at) return `at ${at[1]} ms call ${unquote(at[2])} is ${plain(m.actual, 'state')}; the lesson expects ${plain(m.expected, 'state')}`;
  if (m.field === 'violated invariants') return `broken invariants: ${plain(m.actual, '')}; the lesson expects ${plain(m.expected, '')}`;
  const req = /^requests\[(.+?)\](?:\.(.+))?$/.exec(m.field);
  if (req && !req[2]) return `call ${unquote(req[1])} never starts`;
  const [subject, field] = req ? [`call ${unquote(req[1])}`, req[2]] : ['', m.field.replace(/^summary\./, '')];
  const last = field.split('.').pop() ?? field;
  const words = FIELD_WORDS[last] ?? field;
  return `${subject ? `${subject} ` : ''}${words} ${plain(m.actual, last)}; the lesson expects ${plain(m.expected, last)}`;
}

/** `"req-7"` → `req-7` (request keys are JSON-encoded ids). */
function unquote(key: string): string {
  return /^".*"$/.test(key) ? key.slice(1, -1) : key;
}
