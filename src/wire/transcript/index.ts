/**
 * Real traffic in (issue 12): import MCP transcripts in four formats, check them against the
 * labs' rules, export any lab run as a transcript, redact, and open a transcript as a scenario.
 * Browser-safe (no Node APIs); the schema check uses ajv with the vendored official schemas.
 */
export * from './types';
export { decodeTranscript, sniffEncoding, printable, BINARY_REASON, type TranscriptEncoding } from './encoding';
export { importTranscript, detectFormat, transcriptMessages, messageKind, parseTimeMs, isTimeoutError, type ImportOptions } from './parse';
export { checkTranscript, TranscriptChecker, CHECK_MODULES, CHECKS, canonicalJson, hasIdempotencyKey, type CheckId, type CheckDefinition, type CheckOptions, type CheckReport, type Finding, type Severity, type Teaches } from './checks';
export { exportTranscript, racesWireRecords, wireEffectRecords, transcriptRecords, formatKeeps, requestIdOfKey, type ExportOptions, type Observer, type RacesRecordOptions } from './export';
export { redactMessage, redactRecords, redactTranscript, hashValue } from './redact';
export { transcriptToScenario, SCENARIO_CALL_METHODS, type ToScenarioOptions, type ToScenarioResult } from './toScenario';
export { callSpans, filterEntries, stepFinding, messageAt, type CallSpan, type CallOutcome, type EntryFilter } from './view';
