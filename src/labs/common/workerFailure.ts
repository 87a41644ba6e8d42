/**
 * Reports a background worker's failure once: on the worker's `error` event (a script that cannot
 * load — offline before the site was cached, a file gone after a redeploy — or an uncaught throw),
 * while `w` is still the panel's current worker, it is terminated, `current` is cleared and `fail`
 * gets the reason: "its worker did not start (…)" when the worker never answered (`heard()` false),
 * "it failed: …" otherwise. The panel adds its own name and "— check the connection, then press Retry".
 */
export function failOnWorkerError(w: Worker, current: { current: Worker | null }, heard: () => boolean, fail: (reason: string) => void): void {
  w.onerror = (e) => {
    e.preventDefault();
    if (current.current !== w) return;
    w.terminate();
    current.current = null;
    fail(heard() ? `it failed: ${e.message || 'unknown error'}` : `its worker did not start (${e.message || 'its script did not load'})`);
  };
}
