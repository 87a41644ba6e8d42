import type { ApplyContext, Json } from '../types';
import { decideWriteLock } from './locks';
import { executeCharge, fingerprint, parseResult, type ChargeArgs } from './ledger';
import { bump, type ConnState, type LedgerEnv, type LedgerState, type LedgerTimer } from './state';
import type { ConnId, StepKind } from './schema';

/**
 * The ledger model's two racing connections A and B: each scripted step (begin, read, execute,
 * write, commit) under the configured policy and SQLite's lock rules (see `createLedgerModel`).
 * Split out of `model.ts`; `env` is the model's replay.
 */


function raceArgs(env: LedgerEnv): ChargeArgs {
  return { account: env.config.race.account, cents: env.config.race.cents };
}

function logOp(env: LedgerEnv, ctx: ApplyContext<LedgerTimer>, conn: ConnId, op: string, detail: string) {
  env.db!.run('INSERT INTO op_log (at_ms, actor, op, detail) VALUES (?, ?, ?, ?)', [ctx.now, `conn ${conn}`, op, detail]);
}

/** Applies one step of connection `conn` (or queues it while the connection waits for the lock). */
export function connStep(env: LedgerEnv, state: Omit<LedgerState, 'tables'>, conn: ConnId, step: StepKind, ctx: ApplyContext<LedgerTimer>): Omit<LedgerState, 'tables'> {
  const c = state.conns[conn];
  const other: ConnId = conn === 'A' ? 'B' : 'A';
  const policy = env.config.policy;
  const key = env.config.race.key;
  const set = (patch: Partial<ConnState>, extra: Partial<Omit<LedgerState, 'tables'>> = {}) => ({ ...state, ...extra, conns: { ...state.conns, ...extra.conns, [conn]: { ...c, ...patch } } });
  const done = c.reply === 'replayed' || c.reply === 'in-use' || c.reply === 'busy';

  if (c.phase === 'waiting') {
    ctx.why(`Connection ${conn} is still waiting for the write lock held by ${other}: its ${step} runs when ${other} commits.`);
    return set({ backlog: [...c.backlog, step] });
  }
  if (c.phase === 'aborted') {
    ctx.ignore({ by: 'db', what: `${conn} ${step}`, reason: 'its transaction was rolled back by SQLITE_BUSY' });
    ctx.why(`Connection ${conn}: ${step} does nothing — SQLITE_BUSY already rolled its transaction back and the call failed (the client may retry with the same key).`);
    return state;
  }

  /** The write lock for a statement or a BEGIN IMMEDIATE: null when granted, else the new state. */
  const blocked = (upgrade: boolean): Omit<LedgerState, 'tables'> | null => {
    const decision = decideWriteLock(state, conn, { upgrade, snapshot: c.snapshot, busy: env.config.busy });
    if (decision.kind === 'granted') return null;
    if (decision.kind === 'busy' && decision.code === 'SQLITE_BUSY_SNAPSHOT') {
      ctx.why(`Connection ${conn}: SQLITE_BUSY_SNAPSHOT — it read before ${other} committed, so its read transaction cannot become a write transaction. Rolled back; nothing executed.`);
      logOp(env, ctx, conn, 'busy', 'SQLITE_BUSY_SNAPSHOT on read-then-write upgrade; rolled back');
      return set({ phase: 'aborted', pending: [], snapshot: null, reply: 'busy', error: 'SQLITE_BUSY_SNAPSHOT' });
    }
    if (decision.kind === 'busy') {
      const why =
        decision.because === 'upgrade'
          ? `a read transaction cannot upgrade to a write while ${other} holds the write lock (SQLite returns at once, since waiting could deadlock)`
          : `${other} holds the write lock and busy is "error" (no busy_timeout)`;
      ctx.why(`Connection ${conn}: SQLITE_BUSY — ${why}. Rolled back; nothing executed.`);
      logOp(env, ctx, conn, 'busy', `SQLITE_BUSY on ${step}; rolled back`);
      return set({ phase: 'aborted', pending: [], snapshot: null, reply: 'busy', error: 'SQLITE_BUSY' });
    }
    ctx.why(`Connection ${conn}: ${step} waits — ${other} holds the write lock (busy_timeout). It continues the moment ${other} commits.`);
    return set({ phase: 'waiting', resume: c.phase === 'tx' ? 'tx' : 'idle', backlog: [step] });
  };

  const inTx = c.phase === 'tx';
  switch (step) {
    case 'begin': {
      if (policy === 'naive' || policy === 'claim') {
        ctx.why(`Connection ${conn}: no BEGIN under the ${policy} policy — every statement commits on its own (autocommit).`);
        return state;
      }
      if (inTx) {
        ctx.ignore({ by: 'db', what: `${conn} begin`, reason: 'already in a transaction' });
        ctx.why(`Connection ${conn} is already in a transaction.`);
        return state;
      }
      if (policy === 'deferred') {
        ctx.why(`Connection ${conn}: BEGIN (deferred) — no lock yet; the first read takes a snapshot, the first write must then get the write lock.`);
        return set({ phase: 'tx', snapshot: null });
      }
      const b = blocked(false);
      if (b) return b;
      ctx.why(`Connection ${conn}: BEGIN IMMEDIATE takes the write lock now, so no other connection can write until it commits.`);
      return set({ phase: 'tx' }, { writer: conn });
    }
    case 'read': {
      if (done) return skip(ctx, conn, step, c, state);
      if (policy === 'claim') {
        const fp = fingerprint(raceArgs(env) as unknown as Json);
        const claimed = env.db!.query(
          `INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'in_progress', NULL, ?) ON CONFLICT(key) DO NOTHING RETURNING key`,
          [key, fp, JSON.stringify(conn)],
        );
        if (claimed.length) {
          logOp(env, ctx, conn, 'claim', `INSERT … ON CONFLICT DO NOTHING RETURNING: key ${key} claimed`);
          ctx.why(`Connection ${conn}: one statement INSERT … ON CONFLICT(key) DO NOTHING RETURNING claims key "${key}" — it returned a row, so ${conn} owns the key.`);
          return set({ saw: 'claimed' });
        }
        const row = env.db!.query('SELECT status, result FROM idempotency WHERE key = ?', [key])[0];
        if (row.status === 'completed') {
          logOp(env, ctx, conn, 'replay', `key ${key} already completed: stored result returned`);
          ctx.why(`Connection ${conn}: the claim returned no row — key "${key}" is completed, so it returns the stored result.`);
          return set({ saw: 'completed', reply: 'replayed', result: parseResult(String(row.result)) });
        }
        logOp(env, ctx, conn, 'in-use', `key ${key} in progress elsewhere: 409`);
        ctx.why(`Connection ${conn}: the claim returned no row — key "${key}" is in progress on ${other}, so it answers 409 "key in use" and executes nothing.`);
        return set({ saw: 'in_progress', reply: 'in-use' });
      }
      const snap = policy === 'deferred' && inTx && c.snapshot === null ? state.version : c.snapshot;
      const row = env.db!.query('SELECT status, result FROM idempotency WHERE key = ?', [key])[0];
      const where = inTx ? 'inside its transaction' : 'as an autocommit SELECT';
      if (row === undefined) {
        ctx.why(`Connection ${conn} reads key "${key}" ${where}: no record, so it will execute.${policy === 'naive' ? ' Nothing stops the other connection from reading the same thing before this one writes.' : ''}`);
        return set({ saw: 'none', snapshot: snap });
      }
      if (row.status === 'completed') {
        ctx.why(`Connection ${conn} reads key "${key}": a completed record — it returns the stored result and executes nothing.`);
        return set({ saw: 'completed', snapshot: snap, reply: 'replayed', result: parseResult(String(row.result)) });
      }
      ctx.why(`Connection ${conn} reads key "${key}": in progress elsewhere — it answers 409 "key in use".`);
      return set({ saw: 'in_progress', snapshot: snap, reply: 'in-use' });
    }
    case 'execute': {
      if (done) return skip(ctx, conn, step, c, state);
      if (c.saw === null) {
        ctx.ignore({ by: 'db', what: `${conn} execute`, reason: 'it has not checked the key yet' });
        ctx.why(`Connection ${conn}: execute skipped — it has not read the key yet (steps run in lane order).`);
        return state;
      }
      if (c.executed || c.pending.includes('execute')) return skip(ctx, conn, step, c, state);
      if (inTx) {
        const b = blocked(policy === 'deferred' && state.writer !== conn && c.snapshot !== null);
        if (b) return b;
        ctx.why(`Connection ${conn} executes the charge inside its transaction (counter + charge row). Uncommitted: ${other} cannot see it yet.`);
        return set({ pending: [...c.pending, 'execute'] }, { writer: conn });
      }
      const b = blocked(false);
      if (b) return b;
      const result = executeCharge(env.db!, conn, key, raceArgs(env));
      logOp(env, ctx, conn, 'execute', `${result.receipt} (autocommit)`);
      const twice = (state.executions[key] ?? 0) >= 1;
      ctx.why(`Connection ${conn} executes the charge (${result.receipt}) and it commits at once (autocommit).${twice ? ' The key has now executed TWICE.' : ''}`);
      return set({ executed: true, result }, { executions: bump(state.executions, key) });
    }
    case 'write': {
      if (done) return skip(ctx, conn, step, c, state);
      if (!c.executed && !c.pending.includes('execute')) {
        ctx.ignore({ by: 'db', what: `${conn} write`, reason: 'nothing executed yet to record' });
        ctx.why(`Connection ${conn}: write skipped — it has not executed anything to record.`);
        return state;
      }
      if (inTx) {
        ctx.why(`Connection ${conn} writes the idempotency record inside its transaction (visible to ${other} only after commit).`);
        return set({ pending: [...c.pending, 'write'] });
      }
      const b = blocked(false);
      if (b) return b;
      const result = c.result!;
      if (policy === 'claim') {
        env.db!.run(`UPDATE idempotency SET status = 'completed', result = ? WHERE key = ?`, [JSON.stringify(result), key]);
        logOp(env, ctx, conn, 'record', `key ${key} completed with ${result.receipt}`);
        ctx.why(`Connection ${conn} stores the result under its claimed key: later repeats replay ${result.receipt}.`);
        return set({ reply: 'executed' });
      }
      try {
        env.db!.run(`INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'completed', ?, ?)`, [key, fingerprint(raceArgs(env) as unknown as Json), JSON.stringify(result), JSON.stringify(conn)]);
      } catch (err) {
        const message = (err as Error).message;
        logOp(env, ctx, conn, 'error', `INSERT record failed: ${message} — the charge already ran`);
        ctx.why(`Connection ${conn}: INSERT of the record fails (${message}) — too late, its charge ${result.receipt} already committed.`);
        return set({ reply: 'constraint', error: message });
      }
      logOp(env, ctx, conn, 'record', `key ${key} recorded with ${result.receipt}`);
      ctx.why(`Connection ${conn} records key "${key}" with ${result.receipt} (autocommit).`);
      return set({ reply: 'executed' });
    }
    case 'commit': {
      if (policy === 'naive' || policy === 'claim') {
        ctx.why(`Connection ${conn}: nothing to commit — every statement already committed on its own.`);
        return state;
      }
      if (!inTx) {
        ctx.ignore({ by: 'db', what: `${conn} commit`, reason: 'no open transaction' });
        ctx.why(`Connection ${conn}: COMMIT with no open transaction does nothing.`);
        return state;
      }
      let result = c.result;
      let executions = state.executions;
      if (c.pending.length) {
        env.db!.run('BEGIN IMMEDIATE'); // `run`: a prepared statement (`exec` parses the text every time)
        for (const op of c.pending) {
          if (op === 'execute') {
            result = executeCharge(env.db!, conn, key, raceArgs(env));
            executions = bump(executions, key);
          } else {
            env.db!.run(`INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'completed', ?, ?)`, [key, fingerprint(raceArgs(env) as unknown as Json), JSON.stringify(result), JSON.stringify(conn)]);
          }
        }
        env.db!.run('INSERT INTO op_log (at_ms, actor, op, detail) VALUES (?, ?, ?, ?)', [ctx.now, `conn ${conn}`, 'commit', `${c.pending.join(' + ')} committed${result ? ` (${result.receipt})` : ''}`]);
        env.db!.run('COMMIT');
      }
      const executed = c.executed || c.pending.includes('execute');
      const released = state.writer === conn;
      let next = set(
        { phase: 'idle', pending: [], snapshot: null, executed, result, reply: c.reply === 'pending' && executed ? 'executed' : c.reply },
        { writer: released ? null : state.writer, version: c.pending.length ? state.version + 1 : state.version, executions },
      );
      const twice = (executions[key] ?? 0) > 1;
      const text = `Connection ${conn} commits${c.pending.length ? ` ${c.pending.join(' + ')}${result ? ` (${result.receipt})` : ''}` : ''}${released ? ' and releases the write lock' : ''}.${twice ? ' The key has now executed TWICE.' : ''}`;
      const waiter = next.conns[other];
      if (released && waiter.phase === 'waiting') {
        next = { ...next, conns: { ...next.conns, [other]: { ...waiter, phase: waiter.resume, backlog: [] } } };
        for (const s of waiter.backlog) next = connStep(env, next, other, s, { ...ctx, why: () => {}, ignore: () => {} });
        ctx.why(`${text} ${other} stops waiting and runs its held steps now (${waiter.backlog.join(', ')}): it ${describeReply(next.conns[other])}.`);
      } else ctx.why(text);
      return next;
    }
  }
}

function describeReply(c: ConnState): string {
  switch (c.reply) {
    case 'replayed':
      return `finds ${c.result?.receipt ?? 'the record'} and replays it`;
    case 'in-use':
      return 'gets "key in use"';
    case 'busy':
      return 'gets SQLITE_BUSY';
    default:
      return c.phase === 'tx' ? 'is inside its own transaction' : 'continues';
  }
}

function skip<S>(ctx: ApplyContext<LedgerTimer>, conn: ConnId, step: StepKind, c: ConnState, state: S): S {
  const why = c.reply === 'replayed' ? 'it already returned the stored result' : c.reply === 'in-use' ? 'the key is in use elsewhere' : c.reply === 'busy' ? 'SQLITE_BUSY ended its attempt' : 'it already did this';
  ctx.ignore({ by: 'db', what: `${conn} ${step}`, reason: why });
  ctx.why(`Connection ${conn}: ${step} skipped — ${why}.`);
  return state;
}

