/**
 * Where the learner's ledger lives between page loads: one IndexedDB record holding the SQLite
 * file's bytes. A storage failure (quota full, storage disabled) rejects with `PersistError`,
 * whose message says what happened in plain words; callers keep their in-memory ledger.
 */
export interface LedgerPersistence {
  load(): Promise<Uint8Array | null>;
  save(bytes: Uint8Array): Promise<void>;
  clear(): Promise<void>;
}

export class PersistError extends Error {
  constructor(
    message: string,
    readonly quota: boolean,
  ) {
    super(message);
    this.name = 'PersistError';
  }
}

const DB_NAME = 'mcp-reliability-lab';
const STORE = 'ledger';
const KEY = 'ledger.sqlite';

function explain(err: unknown): PersistError {
  const e = err as DOMException | null;
  if (e && (e.name === 'QuotaExceededError' || /quota/i.test(e.message ?? ''))) {
    return new PersistError('the browser\'s storage quota is full, so the ledger could not be saved', true);
  }
  return new PersistError(`the browser refused to store the ledger (${e?.name ?? 'error'}: ${e?.message ?? String(err)})`, false);
}

function openIdb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new PersistError('IndexedDB is not available in this browser', false));
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(explain(req.error));
  });
}

function run<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return openIdb().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        let tx: IDBTransaction;
        let req: IDBRequest<T>;
        try {
          tx = db.transaction(STORE, mode);
          req = body(tx.objectStore(STORE));
        } catch (err) {
          db.close();
          return reject(explain(err));
        }
        tx.oncomplete = () => {
          db.close();
          resolve(req.result);
        };
        tx.onabort = tx.onerror = () => {
          db.close();
          reject(explain(tx.error ?? req.error));
        };
      }),
  );
}

/**
 * The IndexedDB persistence used by the page. The file is stored as a `Blob`: putting a 37 MB
 * `Uint8Array` (a 100,000-charge ledger) held the main thread for over a second while the browser
 * serialised it, a Blob is handed to the database as it is. Records saved as bytes by earlier
 * versions still load.
 */
export const indexedDbPersistence: LedgerPersistence = {
  async load() {
    const value = await run('readonly', (s) => s.get(KEY) as IDBRequest<unknown>);
    if (value instanceof Blob) return new Uint8Array(await value.arrayBuffer());
    return value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : null;
  },
  async save(bytes) {
    const blob = new Blob([bytes as BlobPart], { type: 'application/vnd.sqlite3' });
    await run('readwrite', (s) => s.put(blob, KEY));
  },
  async clear() {
    await run('readwrite', (s) => s.delete(KEY));
  },
};
