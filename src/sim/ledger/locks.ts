import type { ConnId } from './schema';

/**
 * The write-lock rules both the race lanes (`model.ts`) and the practice lab's barrier
 * (`practice.ts`) enforce for two connections to one database. sql.js is one in-process database
 * (it runs `journal_mode = MEMORY`, `src/db/sqljs.ts`), so the lab decides, as SQLite would for two
 * real connections to a database in **WAL mode** (https://sqlite.org/lang_transaction.html,
 * https://sqlite.org/wal.html), whether a connection may write now. In WAL mode a reader never
 * blocks a writer: a writer commits while the other connection has a read open, and that reader's
 * snapshot goes stale. The one difference in rollback-journal mode (the default, and sql.js's own
 * journal): an open read holds a SHARED lock that blocks the writer's COMMIT (it waits or gets
 * SQLITE_BUSY), so a stale snapshot cannot arise there. The rules modelled:
 * - one writer at a time; the holder may go on writing;
 * - a deferred transaction that read (`snapshot` = commits seen then) cannot write once another
 *   connection committed since: SQLITE_BUSY_SNAPSHOT, even when the lock is free;
 * - a read-then-write upgrade while another holds the lock fails at once (SQLITE_BUSY: waiting
 *   could deadlock);
 * - otherwise a writer that finds the lock taken waits (busy_timeout) or fails at once with
 *   SQLITE_BUSY (`busy: 'error'`, no busy_timeout).
 */
export interface WriteLock {
  /** The connection holding the write lock, or null. */
  writer: ConnId | null;
  /** Commits so far (what a snapshot is compared with). */
  version: number;
}

/** What a connection asks for. `snapshot`: the `version` its read transaction saw, or null. */
export interface WriteRequest {
  upgrade: boolean;
  snapshot: number | null;
  busy: 'wait' | 'error';
}

/** The answer: go ahead, wait for the holder's commit, or fail (and roll back) with SQLITE_BUSY(_SNAPSHOT). */
export type LockDecision = { kind: 'granted' } | { kind: 'wait' } | { kind: 'busy'; code: 'SQLITE_BUSY' | 'SQLITE_BUSY_SNAPSHOT'; because: 'stale-snapshot' | 'upgrade' | 'no-busy-timeout' };

/** Decides whether `conn` may write now under `lock` (pure; the caller applies the answer). */
export function decideWriteLock(lock: WriteLock, conn: ConnId, request: WriteRequest): LockDecision {
  const stale = request.upgrade && request.snapshot !== null && lock.version > request.snapshot;
  if (lock.writer === null || lock.writer === conn) return stale ? { kind: 'busy', code: 'SQLITE_BUSY_SNAPSHOT', because: 'stale-snapshot' } : { kind: 'granted' };
  if (request.upgrade) return { kind: 'busy', code: 'SQLITE_BUSY', because: 'upgrade' };
  if (request.busy === 'error') return { kind: 'busy', code: 'SQLITE_BUSY', because: 'no-busy-timeout' };
  return { kind: 'wait' };
}
