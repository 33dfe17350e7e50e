import { SseParser, type SseEvent } from '../../apps/cli/src/events/sse-parser';
import { eventually } from './app-process';

/** What the opening answer of an event stream was, for the OpenAPI check. */
export interface StreamOpening {
  readonly status: number;
  readonly contentType: string;
}

/**
 * A test's client of GET /api/pods/{name}/events: keeps every event and the
 * raw text (heartbeat comments included) until closed. Reuses the CLI's
 * parser, so the CLI and the gateway agree on the wire format.
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  raw = '';
  private readonly parser = new SseParser();
  private readonly abort = new AbortController();
  private reading: Promise<void> = Promise.resolve();

  private constructor(readonly opening: StreamOpening) {}

  static async open(url: string, lastEventId: string | null = null): Promise<SseClient> {
    const abort = new AbortController();
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
    const response = await fetch(url, { headers, signal: abort.signal });
    const client = new SseClient({
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
    });
    client.abort.signal.addEventListener('abort', () => abort.abort());
    if (response.body !== null) client.reading = client.read(response.body);
    return client;
  }

  get lastId(): string | null {
    return this.parser.lastId;
  }

  ids(): string[] {
    return this.events.map((e) => e.id ?? '');
  }

  data(event: SseEvent): Record<string, unknown> {
    return JSON.parse(event.data) as Record<string, unknown>;
  }

  /** Waits until an event matches, and returns it. */
  waitFor(what: string, match: (event: SseEvent) => boolean, timeoutMs = 60_000): Promise<SseEvent> {
    return eventually(async () => this.events.find(match), timeoutMs, what, 50);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.reading;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        const text = decoder.decode(chunk, { stream: true });
        this.raw += text;
        this.events.push(...this.parser.push(text));
      }
    } catch {
      // aborted by close(), or the server went away: the events so far stay.
    }
  }
}
