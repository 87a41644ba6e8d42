/**
 * The retry pieces three labs share (flow's reconnect herd, resilience's storms and breakers, the
 * ledger's practice checks), side by side: backoff schedules with full / equal / decorrelated
 * jitter, the retry classifier (which failures may be retried, and whether an idempotency key
 * makes it safe), and retry budgets (token bucket, ratio).
 */
export * from './backoff';
export * from './classify';
export * from './budget';
export * from './labOrigins';
