import initSqlJs, { type SqlJsStatic } from 'sql.js';

let loading: Promise<SqlJsStatic> | null = null;

/** Loads sql.js's Node build once (tests, CLI, bench). The wasm is found next to the module. */
export function loadSqlJsNode(): Promise<SqlJsStatic> {
  loading ??= initSqlJs();
  return loading;
}
