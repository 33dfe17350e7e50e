/** One dispatched server-sent event. `id` is the last event id in force when it was dispatched. */
export interface SseEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental text/event-stream parser (the WHATWG rules): lines end with
 * LF, CRLF or CR; `data` lines join with LF; a blank line dispatches; lines
 * starting with ':' are comments (heartbeats); an event without data is dropped.
 */
export class SseParser {
  private buffer = '';
  private lastEventId: string | null = null;
  private eventType = '';
  private data: string[] = [];
  private pendingCr = false;

  /** The id a reconnect sends as Last-Event-ID. */
  get lastId(): string | null {
    return this.lastEventId;
  }

  push(chunk: string): SseEvent[] {
    let text = chunk;
    // A CR at the end of the previous chunk already ended a line; a following LF belongs to it.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      const isCrLf = this.buffer.startsWith('\r\n', end);
      if (!isCrLf && this.buffer[end] === '\r' && end === this.buffer.length - 1) this.pendingCr = true;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (isCrLf ? 2 : 1));
      const event = this.line(line);
      if (event !== null) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    const data = this.data;
    const event = this.eventType === '' ? 'message' : this.eventType;
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return null;
    return { id: this.lastEventId, event, data: data.join('\n') };
  }
}

/** An event as `podwarden events` prints it: data parsed as JSON when it is JSON. */
export function eventDocument(event: SseEvent): Record<string, unknown> {
  let data: unknown = event.data;
  try {
    data = JSON.parse(event.data);
  } catch {
    // Not JSON: printed as the text it is.
  }
  return { id: event.id, event: event.event, data };
}
