import { readFileSync } from 'node:fs';
import { exploreLab } from '../sim/lab';
import { exploreLabOrders, naturalOrderEvents } from '../sim/labOrders';
import { LAB_DEFINITIONS, parseAnyScenarioText } from '../sim/labs';
import { labOpener } from '../db/sqljs';
import type { Json } from '../sim/types';

const USAGE = 'usage: npm run explore -- FILE.json [--events a,b,c] (1 to 8 event ids)';

/**
 * The `explore` subcommand ("All orders"): every order of `--events a,b,c` (1–8 ids; without it,
 * the lab's natural set), each replayed through the lab's definition, printed as `{ scenario,
 * events, total, evaluated, rejected, pruned, classes[{ key, count, example, inversions, broken }],
 * invariants, canBreak }` — `example` is the order closest to the file (fewest inversions), the
 * "shortest counterexample" of its class. A ledger file without `--events` explores its two
 * connection lanes as before (`{ scenario, total, classes[{ key, count, example, switches }] }`).
 * Exit 0 done; 3 when some order breaks an invariant; 1 bad input; 2 bad command line.
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
  const definition = LAB_DEFINITIONS[lab]({ open: await labOpener(lab, async () => (await import('../db/node')).loadSqlJsNode()) });
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
  const invariantNames = definition.invariants.map((i) => i.name);
  const natural = movable ?? naturalOrderEvents(definition, parsed.scenario);
  if (movable !== undefined || (definition.explore.natural !== undefined || definition.explore.movable(parsed.scenario).length <= 8)) {
    let orders;
    try {
      orders = exploreLabOrders(definition, parsed.scenario, natural);
    } catch (err) {
      process.stderr.write(`error: ${(err as Error).message}\n`);
      return 1;
    }
    const canBreak = orders.classes.some((c) => c.broken.length > 0);
    const doc = {
      scenario: { id: parsed.scenario.id, lab },
      events: natural,
      total: orders.total,
      evaluated: orders.evaluated,
      rejected: orders.rejected,
      pruned: orders.pruned,
      classes: orders.classes.map((c) => ({ key: c.key, count: c.count, example: c.example, inversions: c.inversions, broken: c.broken })),
      invariants: invariantNames,
      canBreak,
    };
    process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
    return canBreak ? 3 : 0;
  }
  const result = exploreLab(definition, parsed.scenario, {}, movable);
  const doc = {
    scenario: { id: parsed.scenario.id, lab },
    total: result.total,
    classes: result.groups.map((g) => ({ key: g.key, count: g.count, example: g.example.order, switches: g.example.switches })) as unknown as Json,
    invariants: invariantNames,
  };
  process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  return 0;
}
