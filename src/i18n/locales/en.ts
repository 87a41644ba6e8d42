/**
 * The English catalogue: the lab's source messages, bundled with the shell (English renders without
 * the ICU runtime). Keys are `<area>.<name>`; every other catalogue (`es.ts`, `ar.ts`, `zh.ts`) has
 * exactly these keys. Messages are ICU MessageFormat; English ones use plain `{name}` arguments only
 * (a test checks it), so the bundled fallback formatter in `i18n.ts` renders them exactly.
 */
export const en = {
  'shell.skip': 'Skip to the lab',
  'shell.brand': 'MCP Reliability Lab',
  'shell.start': 'Start here',
  'shell.startTitle': 'Start here: what the lab is for and where to begin',
  'shell.skipTimeline': 'Skip to the timeline\'s first event',
  'nav.label': 'Labs',
  'nav.soon': 'soon',
  'nav.soonTitle': '{blurb} — coming soon',
  'lab.races.name': 'Races',
  'lab.races.blurb': 'cancellation, timeouts and progress',
  'lab.ledger.name': 'Ledger',
  'lab.ledger.blurb': 'idempotency keys in a real SQLite ledger',
  'lab.flow.name': 'Flow',
  'lab.flow.blurb': 'SSE buffers, proxies, reconnects and jitter',
  'lab.resilience.name': 'Resilience',
  'lab.resilience.blurb': 'tasks, retries, budgets and circuit breakers',
  'lab.traffic.name': 'Traffic',
  'lab.traffic.blurb': 'import your own MCP transcripts, check them and what-if them',
  'theme.label': 'Theme',
  'theme.auto': 'Auto',
  'theme.light': 'Light',
  'theme.dark': 'Dark',
  'lang.label': 'Language',
  'update.available': 'A new version is available — ',
  'update.reload': 'Reload',
  'update.later': 'Later',
} as const;

/** A message key. */
export type MessageKey = keyof typeof en;

/** A catalogue: a message for every key. */
export type Catalogue = Readonly<Record<MessageKey, string>>;
