import { useEffect, useId, useMemo, useState } from 'react';
import type { RacesPolicy } from '../../sim/races';
import { policyEffects } from '../../store/policyEffect';
import { RACES_SETTING_TEXTS, selectConfig, type RacesStore, type RacesStoreState } from '../../store/racesStore';
import { RACES_CLIENT_PROFILE_OPTIONS, racesClientProfile, sdkBehavioursIn } from '../../store/racesClientProfile';
import { formatMs } from '../../charts/format';
import { useRaces, useRacesStore } from './context';

// The schema's descriptions, generated at build time (the page's first paint needs no zod).
const POLICY_KEYS = Object.keys(RACES_SETTING_TEXTS.policy) as (keyof RacesPolicy)[];
const policyText = (key: keyof RacesPolicy) => RACES_SETTING_TEXTS.policy[key] ?? key;

/**
 * Which broken-policy switches would change the run on screen (`policyEffects`; null while the
 * trace is not the scenario's), computed once at mount and then once the scenario and trace have
 * stayed the same for `waitMs`: nine replays run after a drag or a run of key presses, not on every
 * move. Read through a store subscription, not a selector, so an edit does not re-render the panel
 * (and re-set its two dozen inputs) until the result is known.
 */
function usePolicyEffects(store: RacesStore, waitMs: number): Record<keyof RacesPolicy, boolean> | null {
  const compute = (s: RacesStoreState) => (s.trace.scenario === s.scenario ? policyEffects(s.scenario, s.trace, POLICY_KEYS) : null);
  const [effects, setEffects] = useState(() => compute(store.getState()));
  useEffect(() => {
    let last = store.getState();
    let timer: number | undefined;
    const unsubscribe = store.subscribe((s) => {
      if (s.scenario === last.scenario && s.trace === last.trace) return;
      last = s;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => setEffects(compute(store.getState())), waitMs);
    });
    return () => {
      unsubscribe();
      window.clearTimeout(timer);
    };
  }, [store, waitMs]);
  return effects;
}

function LatencyInput({ name, label, value }: { name: 'clientToServer' | 'serverToClient'; label: string; value: number }) {
  const store = useRacesStore();
  const id = useId();
  const commit = (input: HTMLInputElement) => {
    const raw = input.value;
    const n = raw.trim() === '' ? NaN : Number(raw);
    // Invalid values go to the store anyway so the error names the field; the previous setting stays,
    // and the field shows it again (not the refused text).
    store.getState().setConfig({ latencyMs: { [name]: Number.isFinite(n) ? n : raw } });
    const kept = (store.getState().scenario.config as { latencyMs: Record<string, number> }).latencyMs[name];
    if (String(kept) !== input.value && !(Number.isFinite(n) && n === kept)) input.value = String(kept);
  };
  return (
    <div className="field-inline">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        key={value}
        type="number"
        inputMode="numeric"
        min={0}
        step={10}
        defaultValue={value}
        data-testid={`latency-${name}`}
        onBlur={(e) => {
          if (e.currentTarget.value !== String(value)) commit(e.currentTarget);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget);
        }}
      />
      <span className="muted small">ms</span>
    </div>
  );
}

/**
 * The client profile (`config.client.profile`): the lab's spec policy or the TypeScript SDK v1 or
 * v2, as the differential oracles observe them; under the SDK, the named SDK behaviours this run went
 * through, each where it first changed the run. Undoable and kept in the share link like every setting.
 */
function ClientProfileField() {
  const store = useRacesStore();
  const config = useRaces(selectConfig);
  const profile = racesClientProfile(config);
  // The trace only under the SDK profile (the lab's own profile lists nothing): a drag re-renders this field only there.
  const sdk = profile === 'lab' ? null : profile === 'typescript-sdk-v1' ? 'SDK v1' : 'SDK v2';
  const trace = useRaces((s) => (sdk !== null ? s.trace : null));
  const id = useId();
  const seen = useMemo(() => (trace !== null ? sdkBehavioursIn(trace) : []), [trace]);
  return (
    <div className="field">
      <label htmlFor={id}>Client</label>
      <select id={id} data-testid="client-profile" value={profile} onChange={(e) => store.getState().setConfig({ client: { profile: e.currentTarget.value } } as never)}>
        {RACES_CLIENT_PROFILE_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {sdk !== null && (
        <div className="sdk-behaviours" data-testid="sdk-behaviours">
          {seen.length === 0 ? (
            <p className="muted small">No {sdk} behaviour departs from the lab's policy in this run as it stands: the outcome is the same under both.</p>
          ) : (
            <ul className="small">
              {seen.map((b) => (
                <li key={b.id} data-testid="sdk-behaviour" data-rule={b.id}>
                  <strong>{b.title}</strong> <span className="muted">(<code>{b.id}</code>, at {b.atMs.map((t) => formatMs(t)).join(', ')} ms)</span>
                  <span className="check-desc">
                    {b.text}
                    {b.thread ? ` — ${b.thread}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

/** Revision, transport, latency, the client profile and the broken-policy switches. Every change replays at once. */
export function SettingsPanel() {
  const store = useRacesStore();
  const config = useRaces(selectConfig);
  const set = (patch: Record<string, unknown>) => store.getState().setConfig(patch as never);
  const revId = useId();
  const trId = useId();
  // Which switches would change this run: the others are marked "no effect here". Nine replays,
  // so they run once the scenario has settled (250 ms without an edit), not on every drag move.
  const effects = usePolicyEffects(store, 250);

  return (
    <section className="panel settings" aria-labelledby="settings-h">
      <h2 id="settings-h">Settings</h2>
      <div className="field">
        <label htmlFor={revId}>MCP revision</label>
        <select id={revId} data-testid="revision" value={config.revision} onChange={(e) => set({ revision: e.currentTarget.value })}>
          <option value="2026-07-28">2026-07-28 (the lesson)</option>
          <option value="2025-11-25">2025-11-25 (most deployed SDKs)</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={trId}>Transport</label>
        <select id={trId} data-testid="transport" value={config.transport} onChange={(e) => set({ transport: e.currentTarget.value })}>
          <option value="stdio">stdio</option>
          <option value="streamable-http">Streamable HTTP</option>
        </select>
      </div>
      <ClientProfileField />
      <fieldset className="field">
        <legend>One-way latency</legend>
        <LatencyInput name="clientToServer" label="client → server" value={config.latencyMs.clientToServer} />
        <LatencyInput name="serverToClient" label="server → client" value={config.latencyMs.serverToClient} />
      </fieldset>
      <label className="check">
        <input type="checkbox" data-testid="progressResetsIdleTimeout" checked={config.progressResetsIdleTimeout} onChange={(e) => set({ progressResetsIdleTimeout: e.currentTarget.checked })} />
        <span>
          <code>progressResetsIdleTimeout</code>
          <span className="check-desc">{RACES_SETTING_TEXTS.progressResetsIdleTimeout}</span>
        </span>
      </label>
      <fieldset className="field policies">
        <legend>Broken policies (bugs to switch on)</legend>
        {effects && <p className="muted small policies-note">Switches marked “no effect here” change nothing in this scenario as it stands; move events or change the transport to reach them.</p>}
        {POLICY_KEYS.map((key) => {
          const inert = effects !== null && effects[key] === false;
          return (
            <label key={key} className={`check${config.policy[key] ? ' is-on' : ''}${inert ? ' is-inert' : ''}`} data-effect={effects === null ? 'unknown' : inert ? 'none' : 'changes'}>
              <input type="checkbox" data-testid={`policy-${key}`} checked={config.policy[key]} onChange={(e) => set({ policy: { [key]: e.currentTarget.checked } })} />
              <span>
                <code>{key}</code>
                {inert && <span className="badge badge-muted">no effect here</span>}
                <span className="check-desc">{policyText(key)}</span>
              </span>
            </label>
          );
        })}
      </fieldset>
    </section>
  );
}
