import { request, type Dispatcher } from 'undici';
import type { BootLogLine } from '@podwarden/policies';
import { z } from 'zod';
import { callerCancellation } from './http-exchange';
import { parseJson, readOrNull, timeMs } from './json-reading';

/** The tail of a pod's logs: the lines read and why reading stopped, or why there are none. */
export type PodLogRead =
  | {
      readonly kind: 'read';
      readonly lines: readonly BootLogLine[];
      /** quiet: the backfill ended (no line for a while); lines/bytes/time: a bound cut it; end: the server closed. */
      readonly stoppedBy: 'quiet' | 'lines' | 'bytes' | 'time' | 'end';
    }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'unreadable'; readonly reason: string };

/** Every bound of one read: the tail asked for, and lines, bytes and time after which it stops. */
export interface PodLogBounds {
  readonly tail: number;
  readonly maxLines: number;
  readonly maxBytes: number;
  /** Whole read, headers included. */
  readonly maxMs: number;
  /** Once lines flow, this long without one means the backfill is over: read a tail and stop. */
  readonly quietMs: number;
}

export interface PodLogRequest {
  readonly dispatcher: Dispatcher;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bounds: PodLogBounds;
  readonly signal?: AbortSignal;
}

/**
 * Reads the server-sent events of GET /pods/{id}/logs until a bound is met,
 * then closes the stream: the endpoint streams live after its backfill and
 * would otherwise never end. Never throws but on the caller's cancellation.
 */
export async function readPodLogTail(req: PodLogRequest): Promise<PodLogRead> {
  if (req.signal?.aborted) throw callerCancellation(req.signal);
  const controller = new AbortController();
  const forward = (): void => controller.abort(req.signal?.reason);
  req.signal?.addEventListener('abort', forward, { once: true });
  const deadline = setTimeout(() => controller.abort(new Error('deadline')), req.bounds.maxMs);
  try {
    const response = await request(req.url, {
      dispatcher: req.dispatcher,
      method: 'GET',
      headers: { ...req.headers },
      signal: controller.signal,
    });
    if (response.statusCode === 404) {
      response.body.destroy();
      return { kind: 'not-found' };
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      response.body.destroy();
      return { kind: 'unreadable', reason: `http ${response.statusCode}` };
    }
    return await readEvents(response.body, req.bounds, controller.signal);
  } catch (error) {
    if (req.signal?.aborted) throw callerCancellation(req.signal);
    if (controller.signal.aborted) return { kind: 'unreadable', reason: 'timeout before the logs answered' };
    return {
      kind: 'unreadable',
      reason: `transport error: ${error instanceof Error ? error.message : 'unknown'}`.slice(0, 120),
    };
  } finally {
    clearTimeout(deadline);
    req.signal?.removeEventListener('abort', forward);
  }
}

function readEvents(
  body: Dispatcher.ResponseData['body'],
  bounds: PodLogBounds,
  aborted: AbortSignal,
): Promise<PodLogRead> {
  return new Promise((resolve) => {
    const lines: BootLogLine[] = [];
    const parser = new SseDataParser();
    let bytes = 0;
    let quiet: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (stoppedBy: 'quiet' | 'lines' | 'bytes' | 'time' | 'end'): void => {
      if (done) return;
      done = true;
      clearTimeout(quiet);
      aborted.removeEventListener('abort', onAbort);
      body.destroy();
      resolve({ kind: 'read', lines: lines.slice(-bounds.maxLines), stoppedBy });
    };
    const onAbort = (): void => finish('time');
    aborted.addEventListener('abort', onAbort, { once: true });
    const armQuiet = (): void => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish('quiet'), bounds.quietMs);
    };
    armQuiet();
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      for (const data of parser.push(chunk.toString('utf8'))) {
        const line = logLineOf(data);
        if (line !== null) lines.push(line);
      }
      if (lines.length >= bounds.maxLines) finish('lines');
      else if (bytes >= bounds.maxBytes) finish('bytes');
      else armQuiet();
    });
    body.on('end', () => finish('end'));
    body.on('error', () => finish(aborted.aborted ? 'time' : 'end'));
  });
}

/** The `data` of each complete event (multi-line data joined with \n); comments and other fields skipped. */
export class SseDataParser {
  private buffer = '';
  private data: string[] = [];

  push(text: string): string[] {
    this.buffer += text;
    const events: string[] = [];
    let newline = this.buffer.search(/\r?\n/);
    while (newline >= 0) {
      const raw = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + (this.buffer[newline] === '\r' ? 2 : 1));
      if (raw === '') {
        if (this.data.length > 0) events.push(this.data.join('\n'));
        this.data = [];
      } else if (raw.startsWith('data:')) {
        this.data.push(raw.slice(5).replace(/^ /, ''));
      }
      newline = this.buffer.search(/\r?\n/);
    }
    return events;
  }
}

const logEvent = z.object({ source: z.enum(['system', 'container']), line: z.string(), ts: timeMs });

/** `{ source, line, ts }`; an event we cannot read is skipped (it is evidence, not a decision input on its own). */
export function logLineOf(data: string): BootLogLine | null {
  const parsed = parseJson(data);
  return parsed.ok ? readOrNull(logEvent, parsed.value) : null;
}
