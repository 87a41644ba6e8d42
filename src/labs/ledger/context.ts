import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { SqlJsStatic } from 'sql.js';
import type { LedgerStore, LedgerStoreState } from '../../store/ledgerStore';
import type { LedgerDbStore, LedgerDbState } from '../../store/ledgerDbStore';

/** The lab instance's stores and the loaded sql.js module. */
export interface LedgerLabContext {
  store: LedgerStore;
  db: LedgerDbStore;
  SQL: SqlJsStatic;
}

export const LedgerContext = createContext<LedgerLabContext | null>(null);

export function useLedgerContext(): LedgerLabContext {
  const c = useContext(LedgerContext);
  if (!c) throw new Error('useLedgerContext: no LedgerContext provider');
  return c;
}

export function useLedger<T>(selector: (s: LedgerStoreState) => T): T {
  return useStore(useLedgerContext().store, selector);
}

export function useLedgerDb<T>(selector: (s: LedgerDbState) => T): T {
  return useStore(useLedgerContext().db, selector);
}
