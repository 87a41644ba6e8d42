import type { CallSpan, TrafficStore, TranscriptEntry } from '../../store/trafficStore';
import type { TrafficReply, TrafficRequest } from './trafficProtocol';

/** What the runner needs of a worker (a real `Worker`, or a fake in tests). */
export interface TrafficWorker {
  postMessage(m: TrafficRequest): void;
  terminate(): void;
  onmessage: ((e: MessageEvent<TrafficReply>) => void) | null;
}

/**
 * Runs import and check jobs on a worker and reports them to the traffic store. One job at a time:
 * a new import or `cancel()` terminates the worker of the job in flight (so the parse stops at
 * once) and a fresh worker takes the next job. Stale replies (of an ended job) are ignored.
 */
export function createTrafficRunner(store: TrafficStore, spawn: () => TrafficWorker) {
  let worker: TrafficWorker | null = null;
  let job = 0;
  let busy = false;
  let source = '';
  /** The transcript the current worker holds (after its import or a re-check sent to it). */
  let held: unknown = null;

  /** The parts of the import in flight (a big transcript arrives in `part` messages before `imported`). */
  let parts: { job: number; entries: TranscriptEntry[][]; spans: CallSpan[][] } = { job: 0, entries: [], spans: [] };

  const onReply = (e: MessageEvent<TrafficReply>) => {
    const m = e.data;
    if (m.job !== job) return;
    const s = store.getState();
    if (m.type === 'progress') return s.advance(m.stage);
    if (m.type === 'review') return;
    if (m.type === 'part') {
      if (parts.job !== m.job) parts = { job: m.job, entries: [], spans: [] };
      parts.entries.push(m.entries);
      parts.spans.push(m.spans);
      return;
    }
    busy = false;
    if (m.type === 'imported') {
      let { result, spans } = m;
      if (m.parts && result.ok) {
        const mine = parts.job === m.job ? parts : { entries: [], spans: [] };
        result = { ok: true, transcript: { ...result.transcript, entries: mine.entries.flat() } };
        spans = mine.spans.flat();
      }
      parts = { job: 0, entries: [], spans: [] };
      s.finishImport(source, result, m.report, spans);
      if (m.result.ok) held = store.getState().transcript;
    }
    else if (m.type === 'checked') s.finishCheck(m.report);
    else s.fail(`${source} was not loaded; the previous transcript is kept`, m.error);
  };
  const ensure = () => {
    if (!worker) {
      worker = spawn();
      worker.onmessage = onReply;
    }
    return worker;
  };
  const stop = () => {
    if (worker && busy) {
      worker.terminate();
      worker = null;
      held = null;
    }
    busy = false;
  };

  return {
    /** Imports `text` (from `from`, e.g. "The file x.log") and checks it with the given options. */
    importText(text: string, from: string, check: { allowanceMs: number; maxMs: number | null }) {
      stop();
      job += 1;
      busy = true;
      source = from;
      let lines = 1;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
      store.getState().begin({ stage: 'parsing', lines, source: from });
      ensure().postMessage({ type: 'import', job, text, check });
    },
    /** Re-checks the loaded transcript with new options (no re-parse). */
    recheck(check: { allowanceMs: number; maxMs: number | null }) {
      const transcript = store.getState().transcript;
      if (!transcript) return;
      stop();
      job += 1;
      busy = true;
      source = store.getState().source ?? 'The transcript';
      store.getState().begin({ stage: 'checking', lines: 0, source });
      const w = ensure();
      w.postMessage({ type: 'check', job, transcript: held === transcript ? null : transcript, check });
      held = transcript;
    },
    /** The review report (Markdown) of the loaded transcript, made on a worker of its own (ended after). */
    review(redact: boolean): Promise<{ filename: string; text: string }> {
      const transcript = store.getState().transcript;
      if (!transcript) return Promise.reject(new Error('nothing is loaded — import a transcript first'));
      const w = spawn();
      return new Promise<{ filename: string; text: string }>((resolve, reject) => {
        w.onmessage = (e) => {
          const m = e.data;
          if (m.type === 'review') resolve({ filename: m.filename, text: m.text });
          else if (m.type === 'failed') reject(new Error(m.error));
          else return;
          w.terminate();
        };
        // The saved file's links open this copy of the lab (the page's address without its hash).
        w.postMessage({ type: 'review', job: 0, transcript, redact, linkBase: window.location.href.split('#')[0] });
      });
    },
    /** Stops the job in flight; the store keeps its transcript. */
    cancel() {
      if (!busy) return;
      stop();
      job += 1;
      store.getState().cancel();
    },
    dispose() {
      worker?.terminate();
      worker = null;
    },
  };
}

export type TrafficRunner = ReturnType<typeof createTrafficRunner>;
