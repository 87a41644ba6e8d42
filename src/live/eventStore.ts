/**
 * A bounded in-memory SSE event store for 2025-11-25 Streamable HTTP sessions (resumable streams:
 * a client reconnects with `Last-Event-ID` and gets the rest of that stream). Used by
 * `mcp-lab serve --tools conformance` and the conformance tests' host.
 */
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * An in-memory SSE event store for one 2025-era session (SEP-1699 resumability): every message
 * sent on a stream is kept under an event id `<streamId>#<seq>`; a client reconnecting with
 * `Last-Event-ID` gets the same stream's later events, in order. Bounded: at most `cap` events
 * (oldest dropped first), so a long session cannot grow it without limit.
 * @param cap most events kept (default 1000)
 */
export function createMemoryEventStore(cap = 1000): EventStore {
  const events: { id: EventId; streamId: StreamId; seq: number; message: JSONRPCMessage }[] = [];
  let seq = 0;
  const streamOf = (id: EventId): StreamId | undefined => {
    const cut = id.lastIndexOf('#');
    return cut > 0 ? id.slice(0, cut) : undefined;
  };
  return {
    async storeEvent(streamId, message) {
      seq += 1;
      const id = `${streamId}#${seq}`;
      events.push({ id, streamId, seq, message });
      if (events.length > cap) events.splice(0, events.length - cap);
      return id;
    },
    async getStreamIdForEventId(id) {
      return streamOf(id);
    },
    async replayEventsAfter(lastEventId, { send }) {
      const streamId = streamOf(lastEventId);
      const after = Number(lastEventId.slice(lastEventId.lastIndexOf('#') + 1));
      if (streamId === undefined || !Number.isInteger(after)) throw new Error(`unknown event id ${lastEventId}`);
      for (const e of events) if (e.streamId === streamId && e.seq > after) await send(e.id, e.message);
      return streamId;
    },
  };
}

