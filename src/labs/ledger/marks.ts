import type { TimelineLane, TimelineMark, Tone } from '../../charts/timelineTypes';
import type { ConnId, LedgerTrace } from '../../sim/ledger';

/**
 * Lanes and marks of the ledger timeline: calls on the client lane, steps on each connection's lane,
 * the execution counter below. The client and connection lanes start with a blank 16 px row that
 * holds the lane's name, so it never sits on the label of a mark at 0 ms.
 */
export function ledgerLanes(trace: LedgerTrace): TimelineLane[] {
  const events = trace.scenario.events;
  const calls = events.filter((e) => e.actor === 'client');
  const lanes: TimelineLane[] = [];
  if (calls.length) {
    lanes.push({ id: 'client', label: 'client calls', rows: [{ id: 'name', height: 16 }, ...calls.map((c) => ({ id: `call-${JSON.stringify(c.requestId)}`, height: 26, label: `id ${JSON.stringify(c.requestId)}` }))] });
  }
  for (const conn of ['A', 'B'] as ConnId[]) {
    if (events.some((e) => e.actor === 'db' && e.conn === conn)) lanes.push({ id: `conn-${conn}`, label: `connection ${conn}`, rows: [{ id: 'name', height: 16 }, { id: 'steps', height: 40 }] });
  }
  lanes.push({ id: 'ledger', label: 'executions', rows: [{ id: 'count', height: 34 }] });
  return lanes;
}

const REPLY_TONE: Record<string, Tone> = { executed: 'ok', replayed: 'info', 'in-use': 'warn', mismatch: 'bad', invalid: 'bad', busy: 'warn', constraint: 'bad' };

export function ledgerMarks(trace: LedgerTrace, cursorMs: number): TimelineMark[] {
  const marks: TimelineMark[] = [];
  const final = trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial;
  const ignoredIds = new Set(trace.steps.filter((s) => s.entry.source === 'script' && s.ignored.length > 0).map((s) => s.entry.label));

  // Calls: a bar from sending to the reply (open-ended while unknown at the playhead).
  for (const c of final.calls) {
    const row = `call-${c.key}`;
    const known = c.replyAtMs !== null && c.replyAtMs <= cursorMs;
    const end = known ? c.replyAtMs! : Math.max(cursorMs, c.sentAtMs);
    const reply = known ? c.reply!.kind : null;
    const receipt = known && (c.reply!.kind === 'executed' || c.reply!.kind === 'replayed') ? ` ${c.reply!.result.receipt}` : '';
    marks.push({
      kind: 'span',
      id: `span-${c.key}`,
      lane: 'client',
      row,
      at: c.sentAtMs,
      to: Math.max(end, c.sentAtMs + 1),
      open: !known,
      tone: reply ? REPLY_TONE[reply] : 'client',
      endCap: known ? 'bar' : 'none',
      endLabel: reply ? `${reply}${receipt}${c.responseLost ? ' (lost)' : ''}` : undefined,
      title: `request ${c.key}${c.idempotencyKey ? ` key ${c.idempotencyKey}` : ' no key'}`,
    });
    // The client's deadline, drawn only when it fired (the reply came later or never).
    if (c.timeoutMs !== null && (c.replyAtMs === null || c.replyAtMs > c.sentAtMs + c.timeoutMs)) {
      marks.push({ kind: 'marker', id: `timeout-${c.key}`, lane: 'client', row, at: c.sentAtMs + c.timeoutMs, tone: 'bad', dashed: true, label: 'timeout', anchor: 'end', labelAt: 'top', future: c.sentAtMs + c.timeoutMs > cursorMs });
    }
  }

  // Connections: the open transaction as a bar, waiting as a band.
  for (const conn of ['A', 'B'] as ConnId[]) {
    let txStart: number | null = null;
    let waitStart: number | null = null;
    let prev = trace.initial.conns[conn];
    for (const step of trace.steps) {
      const c = step.state.conns[conn];
      if (prev.phase !== 'tx' && c.phase === 'tx') txStart = step.at;
      if (prev.phase === 'tx' && c.phase !== 'tx' && txStart !== null) {
        marks.push({ kind: 'span', id: `tx-${conn}-${txStart}`, lane: `conn-${conn}`, row: 'steps', at: txStart, to: Math.max(step.at, txStart + 1), tone: 'worker', thickness: 4, future: txStart > cursorMs, title: `${conn}: transaction` });
        txStart = null;
      }
      if (prev.phase !== 'waiting' && c.phase === 'waiting') waitStart = step.at;
      if (prev.phase === 'waiting' && c.phase !== 'waiting' && waitStart !== null) {
        marks.push({ kind: 'band', id: `wait-${conn}-${waitStart}`, lane: `conn-${conn}`, row: 'steps', at: waitStart, to: Math.max(step.at, waitStart + 1), tone: 'warn', title: `${conn} waits for the write lock` });
        waitStart = null;
      }
      prev = c;
    }
    if (txStart !== null) marks.push({ kind: 'span', id: `tx-${conn}-open`, lane: `conn-${conn}`, row: 'steps', at: txStart, to: Math.max(trace.endAt, txStart + 1), open: true, tone: 'worker', thickness: 4, title: `${conn}: transaction never committed` });
    if (waitStart !== null) marks.push({ kind: 'band', id: `wait-${conn}-open`, lane: `conn-${conn}`, row: 'steps', at: waitStart, to: Math.max(trace.endAt, waitStart + 1), tone: 'warn', title: `${conn} still waiting` });
  }

  // Scripted events as draggable handles; same-millisecond events are numbered in their tie order.
  const sameMs = new Map<number, string[]>();
  for (const e of trace.scenario.events) sameMs.set(e.at, [...(sameMs.get(e.at) ?? []), e.id]);
  const tieOrder = (e: { id: string; at: number }) => {
    const group = sameMs.get(e.at)!;
    return group.length > 1 ? group.indexOf(e.id) + 1 : undefined;
  };
  for (const e of trace.scenario.events) {
    const future = e.at > cursorMs;
    const ignored = ignoredIds.has(e.id);
    if (e.actor === 'client') {
      const label = e.kind === 'retry' ? `retry ${JSON.stringify(e.requestId)}` : `call ${JSON.stringify(e.requestId)}`;
      marks.push({ kind: 'handle', id: e.id, lane: 'client', row: `call-${JSON.stringify(e.requestId)}`, at: e.at, shape: 'diamond', tone: 'client', label, ariaLabel: `${label} at ${e.at} ms`, testId: `handle-${e.id}`, future, ignored, tieOrder: tieOrder(e) });
    } else {
      marks.push({ kind: 'handle', id: e.id, lane: `conn-${String(e.conn)}`, row: 'steps', at: e.at, shape: 'circle', tone: 'server', label: e.kind, group: 'step', ariaLabel: `connection ${String(e.conn)} ${e.kind} at ${e.at} ms`, testId: `handle-${e.id}`, future, ignored, tieOrder: tieOrder(e) });
    }
  }

  // The execution counter over time.
  const points: [number, number][] = [[0, 0]];
  for (const s of trace.steps) if (s.state.tables.executions !== points[points.length - 1][1]) points.push([s.at, s.state.tables.executions]);
  const max = Math.max(2, final.tables.executions);
  marks.push({ kind: 'steps', id: 'executions', lane: 'ledger', row: 'count', points, max, until: cursorMs, tone: final.tables.executions > 1 ? 'bad' : 'ok', label: `executions over time (scale 0–${max})` });
  return marks;
}
