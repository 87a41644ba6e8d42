import { captureLine, type CaptureFrame } from './capture';

/**
 * HAR (HTTP Archive 1.2: what a browser's network panel saves) of Streamable HTTP sessions, read
 * by turning it into capture envelope v2 lines (`capture.ts`), which the capture parser reads.
 * Per entry: the request (method, path, lower-cased headers; a JSON-RPC `postData.text` becomes a
 * c2s frame at `startedDateTime`), and the response (status and headers; a JSON body, or every
 * `data:` event of a `text/event-stream` body, becomes s2c frames at `startedDateTime + time`,
 * since HAR does not time the events of a stream). A response with no JSON-RPC body (a 202, a
 * 405, a DELETE) becomes an `http` meta line. Entries of other URLs with no JSON-RPC are left out.
 */

/** The name shown for a HAR import (its transcript's `format` is `capture-jsonl`). */
export const HAR_FORMAT_NAME = 'HAR (browser network export) of Streamable HTTP, read as capture envelope v2';

interface HarHeader {
  name?: unknown;
  value?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `text` is a HAR document (a JSON object with `log.entries`). Parses at most once. */
export function parseHar(text: string): { entries: unknown[] } | null {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') || !/"log"\s*:/.test(trimmed.slice(0, 4096))) return null;
  try {
    const v = JSON.parse(trimmed) as unknown;
    if (isObject(v) && isObject(v.log) && Array.isArray(v.log.entries)) return { entries: v.log.entries };
  } catch {
    return null;
  }
  return null;
}

function headersOf(list: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(list)) return out;
  for (const h of list as HarHeader[]) if (typeof h?.name === 'string' && typeof h.value === 'string') out[h.name.toLowerCase()] = h.value;
  return out;
}

/** The `data:` payloads of an SSE body, one per event (multi-line data joined with a newline). */
export function sseEvents(body: string): string[] {
  const events: string[] = [];
  let data: string[] = [];
  for (const line of body.split(/\r\n|\n|\r/)) {
    if (line === '') {
      if (data.length) events.push(data.join('\n'));
      data = [];
    } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length) events.push(data.join('\n'));
  return events;
}

const looksJsonRpc = (s: string) => /"jsonrpc"\s*:/.test(s);

function bodyText(content: unknown): string {
  if (!isObject(content) || typeof content.text !== 'string') return '';
  if (content.encoding === 'base64') {
    try {
      return new TextDecoder().decode(Uint8Array.from(atob(content.text), (c) => c.charCodeAt(0)));
    } catch {
      return '';
    }
  }
  return content.text;
}

/** The capture envelope v2 text of a HAR's entries (see the module comment). */
export function harToCapture(entries: readonly unknown[]): string {
  const lines: { t: number; seq: number; line: string }[] = [];
  let seq = 0;
  const push = (t: number, frame: Omit<CaptureFrame, 'ts'>) => lines.push({ t, seq: seq++, line: captureLine({ ...frame, ts: new Date(t).toISOString() } as CaptureFrame) });
  entries.forEach((raw, i) => {
    if (!isObject(raw) || !isObject(raw.request)) return;
    const start = Date.parse(String(raw.startedDateTime ?? ''));
    if (!Number.isFinite(start)) return;
    const end = Math.floor(start + (typeof raw.time === 'number' && raw.time > 0 ? raw.time : 0));
    const req = raw.request;
    const res = isObject(raw.response) ? raw.response : {};
    let path = '';
    try {
      path = new URL(String(req.url)).pathname;
    } catch {
      path = String(req.url ?? '');
    }
    const method = typeof req.method === 'string' ? req.method.toUpperCase() : 'POST';
    const reqBody = isObject(req.postData) && typeof req.postData.text === 'string' ? req.postData.text : '';
    const resText = bodyText(res.content);
    const mime = isObject(res.content) && typeof res.content.mimeType === 'string' ? res.content.mimeType : headersOf(res.headers)['content-type'] ?? '';
    const payloads = mime.includes('text/event-stream') ? sseEvents(resText) : resText.trim() ? [resText.trim()] : [];
    const rpcOut = payloads.filter(looksJsonRpc);
    if (!looksJsonRpc(reqBody) && rpcOut.length === 0) return;
    const streamId = String(i + 1);
    const status = typeof res.status === 'number' ? res.status : undefined;
    const resHttp = { ...(status !== undefined ? { status } : {}), headers: headersOf(res.headers) };
    if (looksJsonRpc(reqBody)) push(Math.floor(start), { direction: 'c2s', transport: 'http', http: { method, path, headers: headersOf(req.headers) }, raw: reqBody });
    else push(Math.floor(start), { direction: 'meta', transport: 'http', event: 'http', http: { method, path, headers: headersOf(req.headers) }, text: `${method} ${path}` });
    if (rpcOut.length === 0) push(end, { direction: 'meta', transport: 'http', event: 'http', http: resHttp, streamId, text: `HTTP ${status ?? '?'} with no JSON-RPC body` });
    for (const p of rpcOut) push(end, { direction: 's2c', transport: 'http', http: resHttp, streamId, ...(status !== undefined ? { status } : {}), raw: p });
  });
  lines.sort((a, b) => a.t - b.t || a.seq - b.seq);
  return lines.map((l) => l.line).join('');
}


