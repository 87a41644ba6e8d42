import type { MetaEntry } from '../types';
import { teach, type CheckContext, type CheckModule } from './core';

/**
 * The reconnect checks over the meta lines (flow lab): after a `disconnect` (or a failed connect),
 * each `connect`/`connect-failed` is an attempt; an episode ends at a successful connect.
 */

interface Episode {
  start: MetaEntry;
  attempts: MetaEntry[];
}

/** Collects the connection meta lines; `episodes()` groups them once the run is over. */
function episodeCollector() {
  const meta: MetaEntry[] = [];
  return {
    visit(e: MetaEntry) {
      if (e.kind === 'connect' || e.kind === 'connect-failed' || e.kind === 'disconnect') meta.push(e);
    },
    episodes(): Episode[] {
      const episodes: Episode[] = [];
      let current: Episode | null = null;
      for (const e of meta) {
        if (e.kind === 'disconnect') {
          if (!current) current = { start: e, attempts: [] };
          continue;
        }
        if (!current) {
          if (e.kind === 'connect-failed') current = { start: e, attempts: [] };
          continue;
        }
        current.attempts.push(e);
        if (e.kind === 'connect') {
          episodes.push(current);
          current = null;
        }
      }
      if (current && current.attempts.length > 0) episodes.push(current);
      return episodes;
    },
  };
}

/** A check's run that collects the connection meta lines and judges their episodes once the run is over. */
function overEpisodes(judge: (episodes: Episode[], ctx: CheckContext) => void): ReturnType<CheckModule['create']> {
  const collector = episodeCollector();
  return {
    visit(e) {
      if (e.type === 'meta') collector.visit(e);
    },
    finish: (ctx) => judge(collector.episodes(), ctx),
  };
}

const gapsOf = (ep: Episode) => ep.attempts.map((a, i) => a.atMs - (i === 0 ? ep.start : ep.attempts[i - 1]).atMs);

/**
 * Lockstep: an episode of ≥ 3 attempts whose gaps are all equal or each exactly double the one
 * before, or ≥ 3 episodes whose first gap is the same to the millisecond (and none of ≥ 3 attempts).
 */
export const reconnectLockstep: CheckModule = {
  def: {
    id: 'reconnect-lockstep',
    title: 'Reconnects in lockstep (equal or exactly doubling gaps, no jitter)',
    rule: 'reconnect.jitter',
    ruleText: 'Reconnect delays need jitter (full, equal or decorrelated): without it every client that dropped together comes back in the same millisecond.',
    severity: 'warning',
    teaches: teach('flow', 'F3-restart-herd'),
  },
  create: () =>
    overEpisodes((episodes, ctx) => {
      for (const ep of episodes) {
        const gaps = gapsOf(ep);
        if (gaps.length < 3) continue;
        const equal = gaps.every((g) => g === gaps[0]);
        const doubling = gaps.every((g, i) => i === 0 || g === 2 * gaps[i - 1]);
        if (gaps[0] > 0 && (equal || doubling)) {
          ctx.add('reconnect-lockstep', `${gaps.length} reconnect attempts from ${ep.start.atMs} ms with gaps ${gaps.join(', ')} ms: ${equal ? 'all equal' : 'each exactly double the last'}, so there is no jitter and every client that dropped together retries together.`, [ep.start, ...ep.attempts], []);
        }
      }
      if (episodes.length >= 3) {
        const firsts = episodes.map((ep) => gapsOf(ep)[0]);
        if (firsts[0] > 0 && firsts.every((g) => g === firsts[0]) && !episodes.some((ep) => gapsOf(ep).length >= 3)) {
          ctx.add('reconnect-lockstep', `${episodes.length} reconnects, each exactly ${firsts[0]} ms after its drop: no jitter.`, episodes.flatMap((ep) => [ep.start, ep.attempts[0]]), []);
        }
      }
    }),
};

/** No cap: more failed attempts in a row than `maxReconnectAttempts`, or gaps that keep growing past `maxReconnectDelayMs`. */
export const reconnectNoCap: CheckModule = {
  def: {
    id: 'reconnect-no-cap',
    title: 'Reconnects without a cap',
    rule: 'reconnect.cap',
    ruleText: 'Reconnect attempts need a cap on the delay and on the attempts (or a budget): an uncapped loop hammers a server that is down.',
    severity: 'warning',
    teaches: teach('flow', 'F3-restart-herd'),
  },
  create: () =>
    overEpisodes((episodes, ctx) => {
      const { maxReconnectAttempts, maxReconnectDelayMs } = ctx.opts;
      for (const ep of episodes) {
        const gaps = gapsOf(ep);
        let failedRun = 0;
        let maxRun = 0;
        for (const a of ep.attempts) {
          failedRun = a.kind === 'connect-failed' ? failedRun + 1 : 0;
          maxRun = Math.max(maxRun, failedRun);
        }
        const growing = gaps.length >= 3 && gaps.every((g, i) => i === 0 || g > gaps[i - 1]);
        if (maxRun > maxReconnectAttempts || (growing && gaps[gaps.length - 1] > maxReconnectDelayMs)) {
          ctx.add(
            'reconnect-no-cap',
            maxRun > maxReconnectAttempts
              ? `${maxRun} failed reconnect attempts in a row from ${ep.start.atMs} ms (more than ${maxReconnectAttempts}): the loop has no attempt cap.`
              : `Reconnect gaps keep growing (${gaps.join(', ')} ms) past ${maxReconnectDelayMs} ms: the backoff has no delay cap.`,
            [ep.start, ...ep.attempts],
            [],
          );
        }
      }
    }),
};
