import initSqlJs, { type SqlJsStatic } from 'sql.js';
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url';

let loading: Promise<SqlJsStatic> | null = null;

/**
 * Loads sql.js in the browser once (page or worker). The wasm file is a Vite asset of this lab's
 * chunk, passed through `locateFile`, so it loads only when the ledger lab opens, from this site.
 */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= initSqlJs({ locateFile: () => wasmUrl });
  return loading;
}
