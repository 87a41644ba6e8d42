/// <reference lib="webworker" />
import { callSpans, checkTranscript, importTranscript, type Transcript } from '../../wire/transcript';
import { reviewMarkdownOf } from '../../store/trafficReview';
import { TRAFFIC_PART_SIZE, type TrafficReply, type TrafficRequest } from './trafficProtocol';

/**
 * The traffic page's worker: imports a transcript (format auto-detected), checks it and draws its
 * calls as spans, off the main thread, so a 100k-line log leaves the page responsive. It reports
 * the stage it is in; the page's Cancel terminates it.
 */
/** The transcript of the last good import (re-checks use it without a copy from the page). */
let last: Transcript | null = null;

function reply(m: TrafficReply) {
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(m);
}

self.onmessage = async (e: MessageEvent<TrafficRequest>) => {
  const req = e.data;
  try {
    if (req.type === 'review') {
      const { filename, text } = await reviewMarkdownOf(req.transcript, req.redact, req.linkBase);
      reply({ type: 'review', job: req.job, filename, text });
    } else if (req.type === 'import') {
      reply({ type: 'progress', job: req.job, stage: 'parsing' });
      const result = importTranscript(req.text);
      if (!result.ok) return reply({ type: 'imported', job: req.job, result, report: null, spans: [] });
      reply({ type: 'progress', job: req.job, stage: 'checking' });
      const report = checkTranscript(result.transcript, req.check);
      last = result.transcript;
      const spans = callSpans(result.transcript);
      const { entries } = result.transcript;
      if (entries.length <= TRAFFIC_PART_SIZE && spans.length <= TRAFFIC_PART_SIZE) {
        return reply({ type: 'imported', job: req.job, result, report, spans });
      }
      // A big transcript goes in parts (see TRAFFIC_PART_SIZE), so no one decode blocks the page.
      for (let i = 0; i < Math.max(entries.length, spans.length); i += TRAFFIC_PART_SIZE) {
        reply({ type: 'part', job: req.job, entries: entries.slice(i, i + TRAFFIC_PART_SIZE), spans: spans.slice(i, i + TRAFFIC_PART_SIZE) });
      }
      reply({ type: 'imported', job: req.job, result: { ok: true, transcript: { ...result.transcript, entries: [] } }, report, spans: [], parts: true });
    } else {
      const t = req.transcript ?? last;
      if (!t) return reply({ type: 'failed', job: req.job, error: '(transcript): the worker holds no transcript — import it again' });
      last = t;
      reply({ type: 'checked', job: req.job, report: checkTranscript(t, req.check) });
    }
  } catch (err) {
    reply({ type: 'failed', job: req.job, error: `(${req.type}): failed (${(err as Error).message}) — report this transcript as a bug` });
  }
};
