import type { MessageEntry } from '../types';
import { pushTo, ruleText, teach, type Call, type CheckModule } from './core';

/** The progress checks (races lab rules `progress.*`): after completion, not increasing, an unknown token. */

/** Progress for a token after its request completed (MUST NOT: progress stops with the request). */
export const progressAfterCompletion: CheckModule = {
  def: {
    id: 'progress-after-completion',
    title: 'Progress after the request completed',
    rule: 'progress.after-end',
    ruleText: ruleText('progress.after-end'),
    severity: 'error',
    teaches: teach('races', 'C-progress-idle-maximum'),
  },
  create() {
    const afterEnd = new Map<Call, MessageEntry[]>();
    return {
      visit(e, _m, o) {
        if (o.kind === 'progress' && o.call && o.call.response !== null && e.atMs > o.call.response.atMs) pushTo(afterEnd, o.call, e as MessageEntry);
      },
      finish(ctx) {
        for (const [call, list] of afterEnd) {
          ctx.add('progress-after-completion', `Request ${call.idKey} completed at ${(call.response as MessageEntry).atMs} ms; progress for its token still came at ${list.map((m) => `${m.atMs} ms`).join(', ')}.`, [call.response as MessageEntry, ...list], [call.id], undefined, list[0]);
        }
      },
    };
  },
};

/** A progress value not greater than the one before for the same token (MUST increase). */
export const progressNotIncreasing: CheckModule = {
  def: {
    id: 'progress-not-increasing',
    title: 'Progress that does not increase',
    rule: 'progress.increase',
    ruleText: ruleText('progress.increase'),
    severity: 'error',
    teaches: teach('races', 'C-progress-idle-maximum'),
  },
  create() {
    /** The last numeric progress per call. */
    const seen = new Map<Call, { entry: MessageEntry; value: number }>();
    const bad = new Map<Call, { entries: MessageEntry[]; values: number[] }>();
    return {
      visit(e, _m, o) {
        if (o.kind !== 'progress' || !o.call || typeof o.progress !== 'number') return;
        const value = o.progress;
        const prev = seen.get(o.call);
        if (prev && !(value > prev.value)) {
          const list = bad.get(o.call);
          if (list) {
            list.entries.push(e as MessageEntry);
            list.values.push(value);
          } else bad.set(o.call, { entries: [prev.entry, e as MessageEntry], values: [prev.value, value] });
        }
        seen.set(o.call, { entry: e as MessageEntry, value });
      },
      finish(ctx) {
        for (const [call, { entries, values }] of bad) {
          ctx.add('progress-not-increasing', `Progress for ${call.idKey} does not increase: ${values.join(' → ')} (each value MUST be greater than the one before).`, entries, [call.id], undefined, entries[1]);
        }
      },
    };
  },
};

/** Progress for a token no request (sent the other way) carried. */
export const progressUnknownToken: CheckModule = {
  def: {
    id: 'progress-unknown-token',
    title: 'Progress for a token no request carried',
    rule: 'progress.needs-token',
    ruleText: ruleText('progress.needs-token'),
    severity: 'error',
    teaches: teach('races', 'F2-progress-forever', 'policy.progressTokenOmitted=true'),
  },
  create() {
    const unknown = new Map<string, MessageEntry[]>();
    return {
      visit(e, _m, o) {
        if (o.kind === 'progress' && !o.call) pushTo(unknown, o.tokenKey, e as MessageEntry);
      },
      finish(ctx) {
        for (const [token, list] of unknown) {
          ctx.add('progress-unknown-token', `Progress for token ${token} (${list.length} notification${list.length === 1 ? '' : 's'}, first at ${list[0].atMs} ms), but no request carried that progressToken.`, list, []);
        }
      },
    };
  },
};
