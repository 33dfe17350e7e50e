import type { PodEvent } from '@podwarden/platform';

/** One event as text/event-stream: the stream id is the SSE id a client resumes from. */
export function eventFrame(event: PodEvent): string {
  // JSON.stringify never emits a raw newline, so the data is one line.
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** A comment line: ignored by every client, keeps proxies and idle timeouts from closing the stream. */
export function heartbeatFrame(at: Date): string {
  return `: heartbeat ${at.toISOString()}\n\n`;
}

/** The first bytes: how long a browser waits before reconnecting, and an immediate flush. */
export function openingFrame(retryMs: number): string {
  return `retry: ${retryMs}\n: connected\n\n`;
}
