import { movableLanes, countInterleavings, type ExploreResult, type Interleaving, type OutcomeGroup } from '../explore';
import { CoreRun, type Checkpoint } from '../core';
import { coreOfModel } from '../modelCore';
import type { QueueEntry, Scenario, ScriptedEvent } from '../types';
import { createLedgerModel, ledgerLaneOf, ledgerOutcome, type LedgerModel, type LedgerOutcome, type LedgerState } from './model';
import type { LedgerTables } from './ledger';
import type { OpenDatabase, SqlDatabase, SqlRow } from './sql';

/**
 * The ledger's order explorer with shared prefixes (issue 10: "the ledger's 252 × 5 policy rows in
 * ≤ 250 ms (share common prefixes)"). It gives the same groups, counts, examples and outcomes as
 * `explore` (src/sim/explore.ts) with `run: replayLedger(…).outcome`, which replays every order
 * from scratch; here the orders are walked as a trie (depth first, in `interleavings` order) and
 * each branch restores the replay to its branch point instead of starting over.
 *
 * Why a prefix can be shared: an order hands the sorted original times ("slots") of the movable
 * events out in the permuted sequence, so everything the replay processes before slot k (the
 * fixed events, the model's timers, the first k moved events) depends only on the order's first k
 * events. The replay runs on the checkpointed core (`CoreRun`, fast path: the one queue, tie rule
 * and recorder of every lab), and a trie node is that replay paused just before its slot: a core
 * checkpoint (the model's immutable state, the timer queue, the counters, the position in the
 * scripted stream) plus the database's undo-log mark.
 *
 * The database is restored with an undo log kept by SQLite itself (temporary triggers on the
 * ledger tables that record the inverse statement of every row change, after
 * https://sqlite.org/undoredo.html): savepoints cannot be used, because the model opens and
 * commits its own transactions inside a step. `op_log` is not logged: nothing the model decides
 * reads it and no outcome field comes from it. A restore runs only when a statement that may change rows
 * ran since the branch point (the database handle counts them). The tables are read once per order, at its end,
 * and only those the outcome needs (`readOutcomeTables`); invariants are not evaluated (the
 * from-scratch explorer's outcome does not hold them either).
 */

/** What to explore: like `ExploreSpec` without `run` (the ledger model is the runner). */
export interface LedgerTrieSpec {
  /** A validated ledger scenario (config overrides applied). */
  scenario: Scenario;
  /** Ids of the events that may move (each lane keeps its order; `ledgerLaneOf`). Unknown ids throw `Error`. */
  movable: readonly string[];
  /** Names an outcome; orders with the same name form one group. */
  classify(outcome: LedgerOutcome): string;
}

/** A reusable explorer bound to one private database (opened on first use). */
export interface LedgerTrieExplorer {
  /**
   * Explores every order of `spec.movable` that keeps each lane's order. `onProgress(done, total)`
   * runs after each order, `shouldStop()` before each (then `cancelled: true`). Throws what the
   * model throws (SQLite errors of a broken model).
   */
  explore(spec: LedgerTrieSpec, hooks?: { onProgress?(done: number, total: number): void; shouldStop?(): boolean }): ExploreResult<LedgerOutcome>;
}

/** The tables the outcome reads (`ledgerOutcome`): the counter, the charges and the records; `log` is left empty. */
export function readOutcomeTables(db: SqlDatabase): LedgerTables {
  return {
    executions: Number(db.query('SELECT count FROM executions WHERE id = 1')[0]?.count ?? 0),
    charges: db.query('SELECT receipt FROM charges ORDER BY receipt'),
    idempotency: db.query('SELECT key FROM idempotency ORDER BY key'),
    log: [],
  };
}

const UNDO_DDL = `
CREATE TEMP TABLE IF NOT EXISTS trie_undo (seq INTEGER PRIMARY KEY, op TEXT NOT NULL, rid INTEGER NOT NULL, a, b, c, d, e);
CREATE TEMP TRIGGER IF NOT EXISTS trie_exec_i AFTER INSERT ON main.executions BEGIN INSERT INTO trie_undo (op, rid) VALUES ('exec-i', new.rowid); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_exec_u AFTER UPDATE ON main.executions BEGIN INSERT INTO trie_undo (op, rid, a, b) VALUES ('exec-u', old.rowid, old.id, old.count); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_exec_d AFTER DELETE ON main.executions BEGIN INSERT INTO trie_undo (op, rid, a, b) VALUES ('exec-d', old.rowid, old.id, old.count); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_ch_i AFTER INSERT ON main.charges BEGIN INSERT INTO trie_undo (op, rid) VALUES ('ch-i', new.rowid); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_ch_u AFTER UPDATE ON main.charges BEGIN INSERT INTO trie_undo (op, rid, a, b, c, d, e) VALUES ('ch-u', old.rowid, old.receipt, old.account, old.cents, old.request_id, old.key); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_ch_d AFTER DELETE ON main.charges BEGIN INSERT INTO trie_undo (op, rid, a, b, c, d, e) VALUES ('ch-d', old.rowid, old.receipt, old.account, old.cents, old.request_id, old.key); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_idem_i AFTER INSERT ON main.idempotency BEGIN INSERT INTO trie_undo (op, rid) VALUES ('idem-i', new.rowid); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_idem_u AFTER UPDATE ON main.idempotency BEGIN INSERT INTO trie_undo (op, rid, a, b, c, d, e) VALUES ('idem-u', old.rowid, old.key, old.fingerprint, old.status, old.result, old.request_id); END;
CREATE TEMP TRIGGER IF NOT EXISTS trie_idem_d AFTER DELETE ON main.idempotency BEGIN INSERT INTO trie_undo (op, rid, a, b, c, d, e) VALUES ('idem-d', old.rowid, old.key, old.fingerprint, old.status, old.result, old.request_id); END;
`;

/** The inverse of each logged row change (`op` of `trie_undo`): its statement and parameter order (`rid` the rowid, `vals` the old columns a…e). */
const UNDO: Record<string, { sql: string; params: 'rid' | 'vals,rid' | 'rid,vals'; width: number }> = {
  'exec-i': { sql: 'DELETE FROM executions WHERE rowid = ?', params: 'rid', width: 2 },
  'exec-u': { sql: 'UPDATE executions SET id = ?, count = ? WHERE rowid = ?', params: 'vals,rid', width: 2 },
  'exec-d': { sql: 'INSERT INTO executions (rowid, id, count) VALUES (?, ?, ?)', params: 'rid,vals', width: 2 },
  'ch-i': { sql: 'DELETE FROM charges WHERE rowid = ?', params: 'rid', width: 5 },
  'ch-u': { sql: 'UPDATE charges SET receipt = ?, account = ?, cents = ?, request_id = ?, key = ? WHERE rowid = ?', params: 'vals,rid', width: 5 },
  'ch-d': { sql: 'INSERT INTO charges (rowid, receipt, account, cents, request_id, key) VALUES (?, ?, ?, ?, ?, ?)', params: 'rid,vals', width: 5 },
  'idem-i': { sql: 'DELETE FROM idempotency WHERE rowid = ?', params: 'rid', width: 5 },
  'idem-u': { sql: 'UPDATE idempotency SET key = ?, fingerprint = ?, status = ?, result = ?, request_id = ? WHERE rowid = ?', params: 'vals,rid', width: 5 },
  'idem-d': { sql: 'INSERT INTO idempotency (rowid, key, fingerprint, status, result, request_id) VALUES (?, ?, ?, ?, ?, ?)', params: 'rid,vals', width: 5 },
};

/** Applies the inverse of one logged row change (prepared statements: no SQL text is parsed per restore). */
function undoRow(db: SqlDatabase, r: SqlRow): void {
  const u = UNDO[String(r.op)];
  const vals = [r.a, r.b, r.c, r.d, r.e].slice(0, u.width);
  db.run(u.sql, u.params === 'rid' ? [r.rid] : u.params === 'vals,rid' ? [...vals, r.rid] : [r.rid, ...vals]);
}

/** The replay paused just before slot `k` (a trie node). */
interface Pause {
  /** The core's state there: model state (immutable), timer queue, counters, position in the scripted shape. */
  checkpoint: Checkpoint<LedgerState>;
  /** Statements that may change rows, run so far (a restore is needed only when this moved). */
  statements: number;
  /** The undo log's last seq at this point, or -1 when not taken (nodes with one child). */
  mark: number;
}

/** One position of the merged scripted stream: a fixed event, or the k-th slot of the moved ones. */
type ShapeItem = { fixed: QueueEntry<ScriptedEvent> } | { slot: number; at: number; seq: number };

/**
 * Creates a trie explorer on a private database from `open` (sql.js in practice). One instance
 * runs one exploration at a time (synchronously); the database is kept between explorations.
 */
export function createLedgerTrieExplorer(open: OpenDatabase): LedgerTrieExplorer {
  let statements = 0;
  let raw: SqlDatabase | null = null;
  const counted: OpenDatabase = () => {
    raw = open();
    const db = raw;
    return {
      exec: (sql) => {
        statements++;
        db.exec(sql);
      },
      run: (sql, params) => {
        statements++;
        return db.run(sql, params);
      },
      query: (sql, params) => {
        if (!sql.startsWith('SELECT')) statements++; // a plain SELECT changes no row
        return db.query(sql, params);
      },
    };
  };
  const model: LedgerModel = createLedgerModel(counted, { tables: 'none' });
  // The model on the core without invariants (the from-scratch explorer's outcome holds none) and
  // with checkpoints the trie can resume: it restores the database itself (the undo log).
  const core = coreOfModel({ ...model, invariants: [] });
  let installed = false;

  return {
    explore(spec, hooks = {}) {
      const scenario = spec.scenario;
      const lanes = movableLanes(scenario, spec.movable, ledgerLaneOf);
      const n = lanes.reduce((a, l) => a + l.length, 0);
      const total = countInterleavings(lanes.map((l) => l.length));
      const byId = new Map(scenario.events.map((e) => [e.id, e]));
      const moving = new Set(spec.movable);
      const slots = [...spec.movable].map((id) => byId.get(id)!.at).sort((a, b) => a - b);

      // The scripted stream's shape is the same for every order (`scenarioForOrder`: fixed events
      // first at a shared millisecond, the moved ones in slot order; seq = position in the list).
      const fixed = scenario.events.filter((e) => !moving.has(e.id)).sort((a, b) => a.at - b.at);
      const shape: ShapeItem[] = [];
      for (let f = 0, k = 0; f < fixed.length || k < n; ) {
        const seq = shape.length;
        if (k >= n || (f < fixed.length && fixed[f].at <= slots[k])) {
          const e = fixed[f++];
          shape.push({ fixed: { at: e.at, rank: model.scriptedRank(e), seq, source: 'script', payload: e, label: e.id, actor: e.actor, handle: -1 } });
        } else shape.push({ slot: k, at: slots[k++], seq });
      }

      // The replay runs on the core (`CoreRun`, fast path) over the scripted stream of the shape:
      // fixed events as they are, and at each slot a placeholder with the slot's time, rank and
      // seq (what the queue compares), overwritten by the chosen event just before its step.
      const scripted: QueueEntry[] = shape.map((item) => ('fixed' in item ? item.fixed : { at: item.at, rank: 1, seq: item.seq, source: 'script', payload: null, label: '', actor: 'db', handle: -1 }));
      const isSlot = shape.map((item) => !('fixed' in item));
      let run = CoreRun.start(core, scenario, scripted, 'effects');
      const db = raw!;
      if (!installed) {
        db.exec(UNDO_DDL);
        installed = true;
      }
      db.run('DELETE FROM trie_undo');

      /** Runs the fixed events and timers due before the next slot (or to the end when none is left). */
      const runToSlot = () => {
        for (let next = run.peek(); next !== undefined; next = run.peek()) {
          if (run.cursor < scripted.length && isSlot[run.cursor] && next === scripted[run.cursor]) return;
          run.step();
        }
      };
      const pause = (branching: boolean): Pause => ({
        checkpoint: run.checkpoint(),
        statements,
        mark: branching ? Number(db.query('SELECT coalesce(max(seq), 0) AS m FROM trie_undo')[0].m) : -1,
      });
      const resume = (at: Pause) => {
        run = CoreRun.resume(core, scripted, at.checkpoint, [], 'effects');
        if (statements !== at.statements) {
          for (const r of db.query('SELECT op, rid, a, b, c, d, e FROM trie_undo WHERE seq > ? ORDER BY seq DESC', [at.mark])) undoRow(db, r);
          db.run('DELETE FROM trie_undo WHERE seq > ?', [at.mark]);
          statements = at.statements;
        }
      };

      const groups = new Map<string, OutcomeGroup<LedgerOutcome>>();
      let done = 0;
      let cancelled = false;
      const pos = lanes.map(() => 0);
      const order: string[] = [];
      const laneAt: number[] = [];
      const leaf = (switches: number) => {
        const outcome = ledgerOutcome({ ...run.state.state, tables: readOutcomeTables(db) });
        const key = spec.classify(outcome);
        const g = groups.get(key);
        const il = (): Interleaving => ({ order: order.slice(), switches });
        if (!g) groups.set(key, { key, count: 1, example: il(), outcome });
        else {
          g.count++;
          if (switches < g.example.switches) {
            g.example = il();
            g.outcome = outcome;
          }
        }
        done++;
        hooks.onProgress?.(done, total);
      };
      const walk = (k: number, switches: number) => {
        if (k === n) {
          if (hooks.shouldStop?.()) {
            cancelled = true;
            return;
          }
          leaf(switches);
          return;
        }
        const open = lanes.filter((l, i) => pos[i] < l.length).length;
        const here = pause(open > 1);
        let first = true;
        for (let l = 0; l < lanes.length && !cancelled; l++) {
          if (pos[l] >= lanes[l].length) continue;
          if (!first) resume(here);
          first = false;
          const id = lanes[l][pos[l]];
          const sw = laneAt.length > 0 && laneAt[laneAt.length - 1] !== l ? 1 : 0;
          order.push(id);
          laneAt.push(l);
          pos[l]++;
          const slot = shape[run.cursor] as { slot: number; at: number; seq: number };
          const event = { ...byId.get(id)!, at: slot.at };
          scripted[run.cursor] = { at: slot.at, rank: model.scriptedRank(event), seq: slot.seq, source: 'script', payload: event, label: event.id, actor: event.actor, handle: -1 };
          run.step();
          runToSlot();
          walk(k + 1, switches + sw);
          pos[l]--;
          laneAt.pop();
          order.pop();
        }
      };
      runToSlot();
      if (total > 0) walk(0, 0);
      return { total, done, cancelled, groups: [...groups.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1)) };
    },
  };
}
