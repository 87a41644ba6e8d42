/**
 * Ledger benchmarks (Node): keyed mutations per second through the lab's own `charge()` code on
 * sql.js (WebAssembly, what the browser runs) against native SQLite (better-sqlite3@12) on the same
 * schema and statements (target: sql.js ≥ 0.5× native), and the time to explore the 252
 * interleavings of two five-step connections (target < 300 ms). Figures and ratios only: speed is
 * never a test.
 */
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { loadSqlJsNode } from '../src/db/node';
import { memoryOpener } from '../src/db/sqljs';
import { explore } from '../src/sim/explore';
import { parseScenario } from '../src/sim/scenario';
import { LAB_SCHEMAS } from '../src/sim/labs';
import { charge, createLedger, createLedgerModel, ledgerLaneOf, replayLedger, withLedgerOverrides, type SqlDatabase, type SqlRow, type SqlValue } from '../src/sim/ledger';
import raceFile from '../public/scenarios/ledger/A-race-two-connections.json' with { type: 'json' };

/** The model's database interface over better-sqlite3 (statements cached, as in the sql.js wrapper). */
function nativeDatabase(): SqlDatabase {
  const db = new Database(':memory:');
  const cache = new Map<string, Database.Statement>();
  const prep = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  return {
    exec: (sql) => void db.exec(sql),
    run: (sql, params = []) => ({ changes: prep(sql).run(...(params as SqlValue[])).changes }),
    query: (sql, params = []) => {
      const s = prep(sql);
      return s.reader ? (s.all(...(params as SqlValue[])) as SqlRow[]) : (s.run(...(params as SqlValue[])), []);
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Keyed charges per second: `n` new keys (each: claim transaction + execute-and-record transaction). */
function mutationsPerSecond(open: () => SqlDatabase, n: number, runs = 5): number {
  const rates: number[] = [];
  for (let r = 0; r < runs + 1; r++) {
    const db = open();
    createLedger(db);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) charge(db, { requestId: i, key: `k-${i}`, args: { account: 'acct-1', cents: 100 + (i % 7) }, atMs: i });
    const ms = performance.now() - t0;
    if (r > 0) rates.push(n / (ms / 1000)); // first run warms up
  }
  return median(rates);
}

export interface LedgerBench {
  mutations: number;
  sqljsPerSecond: number;
  nativePerSecond: number;
  ratio: number;
  explore: { policy: string; orders: number; medianMs: number; twice: number }[];
}

export async function benchLedger(): Promise<LedgerBench> {
  const SQL = await loadSqlJsNode();
  const open = memoryOpener(SQL);
  const mutations = 5000;
  const sqljsPerSecond = mutationsPerSecond(open, mutations);
  const nativePerSecond = mutationsPerSecond(nativeDatabase, mutations);

  const parsed = parseScenario(raceFile, 'ledger', LAB_SCHEMAS.ledger);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const model = createLedgerModel(open);
  const out: LedgerBench['explore'] = [];
  for (const policy of ['naive', 'deferred', 'immediate', 'claim']) {
    const s = withLedgerOverrides(parsed.scenario, { policy });
    const times: number[] = [];
    let orders = 0;
    let twice = 0;
    for (let r = 0; r < 6; r++) {
      const t0 = performance.now();
      const result = explore({
        scenario: s,
        movable: s.events.map((e) => e.id),
        laneOf: ledgerLaneOf,
        run: (x) => replayLedger(x, open, { model, keep: 'effects' }).outcome,
        classify: (o) => String(o.summary.executions),
      });
      if (r > 0) times.push(performance.now() - t0);
      orders = result.total;
      twice = result.groups.filter((g) => g.outcome.summary.executions > 1).reduce((n, g) => n + g.count, 0);
    }
    out.push({ policy, orders, medianMs: median(times), twice });
  }
  return { mutations, sqljsPerSecond, nativePerSecond, ratio: sqljsPerSecond / nativePerSecond, explore: out };
}
