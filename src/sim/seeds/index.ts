/**
 * Pure models of what the three seed documents still ask for (issue 13): the retry-storm
 * postmortem (error origins, decision tree and cost gate; dynamic timeout v2; the production
 * checklist; cancellation across the whole chain and the half-finished result; the three protection
 * tiers and the breaker metrics), the article on
 * circuit breakers and retries (its code as written beside the corrected versions), and the
 * lesson's still-missing cases (a ledger across replicas or a restart; a durable task surviving the
 * connection). Nothing here is wired into a lab yet; see docs/seeds-notes.md.
 */
export * from './origins';
export * from './dynamicTimeout';
export * from './checklist';
export * from './cancelChain';
export {
  ARTICLE_BREAKER_DEFAULTS, ARTICLE_POLICY, ARTICLE_RETRY_DEFAULTS, CORRECTED_POLICY, DEFAULT_RETRYABLE_STATUSES,
  articleBreakerAdmit, articleBreakerFailure, articleBreakerInit, articleBreakerSuccess,
  correctedBreakerAdmit, correctedBreakerInit, correctedBreakerRecord, simulateOutage,
} from './article';
export type {
  ArticleBreakerState, ArticleScriptOptions, BreakerConfig, BreakerMode as ArticleBreakerMode, CorrectedAdmission, CorrectedBreakerState,
  OutageCall, OutageResult, ResiliencePolicy, UpstreamScript,
} from './article';
export * from './replicaLedger';
export * from './durableTask';
export * from './tiers';
