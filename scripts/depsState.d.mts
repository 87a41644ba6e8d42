/** Types of depsState.mjs (a plain Node module, run by ensure.mjs before dependencies exist). */
export declare const LOCK_MARKER: string;
export declare function lockHash(lockText: string): string;
export declare function depsState(input: { lockText: string; markerText: string | null; hiddenLockText: string | null }): 'fresh' | 'stale' | 'missing';
