import { useDeferredValue } from 'react';
import type { Json } from '../../sim/types';
import {
  BACKOFF_STRATEGIES,
  checkResilienceExpectation,







} from '../../store/resilienceStore';
import { useR, useResilienceStore } from './context';


/** The resilience page's side panels: the lesson's rows, the settings, the invariants and the tie rule. */

export function LessonPanel() {
  const store = useResilienceStore();
  const original = useR((s) => s.original);
  const trace = useDeferredValue(useR((s) => s.trace));
  const expectations = original.expect ?? [];
  return (
    <section className="panel lesson" aria-labelledby="lesson-h">
      <h2 id="lesson-h">The lesson says</h2>
      <ul className="lesson-list">
        {expectations.map((e, i) => {
          const { overrides: _o, ...rest } = e;
          void _o;
          const met = checkResilienceExpectation(trace, rest).length === 0;
          return (
            <li key={i} data-testid="lesson-row" data-index={i} data-met={met ? 'yes' : 'no'}>
              <span className={met ? 'check-yes' : 'check-no'} aria-hidden="true">
                {met ? '✓' : '○'}
              </span>{' '}
              {e.label}{' '}
              <button type="button" className="small-btn" onClick={() => store.getState().applyExpectation(i)} aria-label={`Show: ${e.label}`}>
                show
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Toggle({ label, path, value, hint }: { label: string; path: string[]; value: boolean; hint?: string }) {
  const store = useResilienceStore();
  const patch = path.reduceRight<Json>((acc, key) => ({ [key]: acc }), !value) as Record<string, Json>;
  return (
    <label className="toggle" title={hint}>
      <input type="checkbox" checked={value} data-testid={`toggle-${path.join('.')}`} onChange={() => store.getState().setConfig(patch)} /> {label}
    </label>
  );
}

function Choice({ label, path, value, options }: { label: string; path: string[]; value: string; options: string[] }) {
  const store = useResilienceStore();
  return (
    <label className="field-inline">
      <span>{label}</span>
      <select value={value} data-testid={`choice-${path.join('.')}`} onChange={(e) => {
          const raw = e.currentTarget.value;
          const value: Json = /^\d+$/.test(raw) ? Number(raw) : raw;
          store.getState().setConfig(path.reduceRight<Json>((acc, key) => ({ [key]: acc }), value) as Record<string, Json>);
        }}>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </label>
  );
}

export function SettingsPanel() {
  const config = useR((s) => s.scenario.config) as Record<string, Json> & { mechanism: string };
  const c = config as Record<string, Record<string, Json>> & { mechanism: string };
  return (
    <section className="panel settings" aria-labelledby="set-h">
      <h2 id="set-h">Settings</h2>
      {config.mechanism === 'tasks' && (
        <>
          <Choice label="Revision" path={['revision']} value={config.revision as string} options={['2026-07-28', '2025-11-25']} />
          <Toggle label="Bug: store overwrites a terminal task" path={['policy', 'cancelOverwritesTerminal']} value={c.policy.cancelOverwritesTerminal as boolean} />
          <Toggle label="Bug: drop an abort made before the task id is known" path={['policy', 'forgetEarlyAbort']} value={c.policy.forgetEarlyAbort as boolean} />
          <Toggle label="Bug: cancel the task with notifications/cancelled" path={['policy', 'cancelWithNotification']} value={c.policy.cancelWithNotification as boolean} />
          <Toggle label="Bug: hand out the task id before it is durable" path={['policy', 'handleBeforeDurable']} value={c.policy.handleBeforeDurable as boolean} />
          <Toggle label="Bug: poll every task at the shortest interval among them (MCPJam inspector PR#3518)" path={['policy', 'pollAtMinimumAcrossTasks']} value={c.policy.pollAtMinimumAcrossTasks as boolean} />
          <Choice label="User's minimum poll interval (ms)" path={['minPollIntervalMs']} value={String(config.minPollIntervalMs ?? 0)} options={['0', '1000', '5000', '30000']} />
          <Choice label="Transport" path={['transport']} value={config.transport as string} options={['stdio', 'streamable-http']} />
        </>
      )}
      {config.mechanism === 'breaker' && (
        <>
          <Choice label="Composition" path={['composition']} value={config.composition as string} options={['retry-around-breaker', 'breaker-around-retry']} />
          <Choice label="Attempts per call" path={['retry', 'maxAttempts']} value={String(c.retry.maxAttempts)} options={['1', '2', '3', '4', '5']} />
          <Choice label="Backoff" path={['retry', 'strategy']} value={c.retry.strategy as string} options={[...BACKOFF_STRATEGIES]} />
          <Choice label="Retry budget" path={['retry', 'budget']} value={c.retry.budget as string} options={['none', 'token-bucket', 'ratio']} />
          <Choice label="After a breaker rejection" path={['retry', 'onRejection']} value={c.retry.onRejection as string} options={['wait-for-reset', 'fail-fast', 'backoff']} />
          <p className="help" data-testid="rejection-rule">
            {config.composition === 'breaker-around-retry'
              ? 'Breaker around retry: the breaker rejects a call before its retry loop starts, so a rejection is final whatever this says.'
              : c.retry.onRejection === 'wait-for-reset'
                ? 'Retry around breaker: a rejected attempt sent nothing, so it is safe to retry — but no sooner than the breaker’s reset (then the half-open probe limit applies).'
                : c.retry.onRejection === 'fail-fast'
                  ? 'Retry around breaker: a rejection ends the call at once (the caller’s fallback runs).'
                  : 'Naive: a rejection is retried on the normal backoff, so the attempts burn against the still-open breaker.'}
          </p>
          <Choice label="Downstream fails with" path={['downstream', 'failWith']} value={c.downstream.failWith as string} options={['http-503', 'http-429', 'http-500', 'http-502', 'http-504', 'http-408', 'http-400', 'http-422', 'jsonrpc-32603', 'jsonrpc-32602', 'tool-error', 'network', 'partial-stream', 'client-timeout']} />
          <Toggle label="Tool has a side effect" path={['operation', 'sideEffect']} value={c.operation.sideEffect as boolean} />
          <h3>Naive breaker switches</h3>
          <Toggle label="Consecutive count that never decays" path={['policy', 'consecutiveNeverDecays']} value={c.policy.consecutiveNeverDecays as boolean} />
          <Toggle label="Half-open lets every caller through" path={['policy', 'halfOpenAdmitsAll']} value={c.policy.halfOpenAdmitsAll as boolean} />
          <Toggle label="Stale results counted (no generation)" path={['policy', 'staleResultsCounted']} value={c.policy.staleResultsCounted as boolean} />
          <Toggle label="Library bug: reset timer lost on a repeat trip" path={['policy', 'resetTimerLostOnRepeatOpen']} value={c.policy.resetTimerLostOnRepeatOpen as boolean} />
          <Toggle label="isError results counted as failures (hermes-agent#11113)" path={['policy', 'toolErrorsCounted']} value={c.policy.toolErrorsCounted as boolean} />
          <Toggle label="Half-open probe is the next real call, side effect and all" path={['policy', 'halfOpenProbeIsRealCall']} value={c.policy.halfOpenProbeIsRealCall as boolean} />
        </>
      )}
      {config.mechanism === 'storm' && (
        <>
          <h3>Fixes, one by one</h3>
          <Toggle label="Retry at one layer only" path={['fixes', 'retryAtOneLayerOnly']} value={c.fixes.retryAtOneLayerOnly as boolean} />
          <Toggle label="Deadlines passed down" path={['fixes', 'deadlinePropagation']} value={c.fixes.deadlinePropagation as boolean} />
          <Toggle label="Retry budget per layer" path={['fixes', 'retryBudget']} value={c.fixes.retryBudget as boolean} />
          <Toggle label="Cancellation propagated" path={['fixes', 'cancelPropagation']} value={c.fixes.cancelPropagation as boolean} />
          <Toggle label="Idempotency keys upstream" path={['fixes', 'idempotencyKeys']} value={c.fixes.idempotencyKeys as boolean} />
          <Toggle label="One retry layer per process" path={['fixes', 'oneRetryLayerPerProcess']} value={c.fixes.oneRetryLayerPerProcess as boolean} />
        </>
      )}
    </section>
  );
}
