import { readFileSync } from 'node:fs';
import { exploreLab } from '../sim/lab';
import { LAB_DEFINITIONS, parseAnyScenarioText } from '../sim/labs';
import type { Json } from '../sim/types';

const USAGE = 'usage: npm run explore -- FILE.json [--events a,b,c]';

/**
 * The `explore` subcommand: every order of the lab's movable events (or `--events a,b,c`), each
 * replayed through the lab's definition, printed as `{ scenario, total, classes[] }` with the
 * count and the simplest example order of each outcome class. Exit 0 done; 1 bad input or a lab
 * without an explorer; 2 bad command line. (Exit 3 for an order that breaks an invariant comes with
 * the engine issue's explorer, which reports invariants per class.)
 */
export async function exploreCommand(argv: string[], readFile: (p: string) => string = (p) => readFileSync(p, 'utf8')): Promise<number> {
  const eventsAt = argv.indexOf('--events');
  const files = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--events');
  const unknown = argv.filter((a) => a.startsWith('--') && a !== '--events');
  if (files.length !== 1 || unknown.length > 0 || (eventsAt >= 0 && argv[eventsAt + 1] === undefined)) {
    process.stderr.write(`${unknown.length ? `unknown option ${unknown[0]}\n` : ''}${USAGE}\n`);
    return 2;
  }
  let text: string;
  try {
    text = readFile(files[0]);
  } catch (err) {
    process.stderr.write(`error: cannot read ${files[0]}: ${(err as Error).message}\n`);
    return 1;
  }
  const parsed = parseAnyScenarioText(text);
  if (!parsed.ok) {
    process.stderr.write(`error: ${files[0]} is not a valid scenario:\n${parsed.errors.map((e) => `  ${e}`).join('\n')}\n`);
    return 1;
  }
  const lab = parsed.lab!;
  let open;
  if (lab === 'ledger') {
    const { loadSqlJsNode } = await import('../db/node');
    const { memoryOpener } = await import('../db/sqljs');
    open = memoryOpener(await loadSqlJsNode());
  }
  const definition = LAB_DEFINITIONS[lab]({ open });
  if (!definition.explore) {
    process.stderr.write(`error: the ${lab} lab has no explorer yet — explore a ledger scenario, or replay this one with \`npm run replay -- FILE\`\n`);
    return 1;
  }
  const movable = eventsAt >= 0 ? argv[eventsAt + 1].split(',').filter(Boolean) : undefined;
  const known = new Set(parsed.scenario.events.map((e) => e.id));
  const missing = (movable ?? []).filter((id) => !known.has(id));
  if (missing.length) {
    process.stderr.write(`error: --events: no event is called ${missing.map((m) => JSON.stringify(m)).join(', ')} — use ids from the file's events\n`);
    return 1;
  }
  const result = exploreLab(definition, parsed.scenario, {}, movable);
  const invariantNames = definition.invariants.map((i) => i.name);
  const doc = {
    scenario: { id: parsed.scenario.id, lab },
    total: result.total,
    classes: result.groups.map((g) => ({ key: g.key, count: g.count, example: g.example.order, switches: g.example.switches })) as unknown as Json,
    invariants: invariantNames,
  };
  process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  return 0;
}
