import type { StreamOpening } from '../gateway/gateway-client';
import { judgeAnswer } from '../gateway/answer-verdict';
import type { GatewayAnswer } from '../gateway/gateway-answer';
import type { Clock } from '../time/clock';
import { SseParser, type SseEvent } from './sse-parser';

export interface FollowerCallbacks {
  onEvent(event: SseEvent): void;
  /** A (re)connection answered text/event-stream; `reconnect` is false the first time. */
  onConnected(reconnect: boolean): void;
  onDisconnected(reason: string): void;
}

/**
 * How following ended: the route answered something other than an event
 * stream (`connectedBefore` says whether a stream was ever open), reconnecting
 * failed too often in a row, or the caller aborted.
 */
export type FollowEnding =
  | { readonly kind: 'not-a-stream'; readonly answer: GatewayAnswer; readonly connectedBefore: boolean }
  | { readonly kind: 'gave-up'; readonly reason: string }
  | { readonly kind: 'aborted' };

/** Reconnects in a row that may fail (no byte received) before following gives up. */
export const MAX_RECONNECT_FAILURES = 8;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 15_000;

export type StreamOpener = (lastEventId: string | null, signal: AbortSignal) => Promise<StreamOpening>;

/**
 * Follows a server-sent event stream: reconnects with Last-Event-ID after a
 * drop, so nothing the server still retains is missed; transient failures
 * (network, 5xx) back off and retry, a bounded number of times in a row.
 */
export async function followEvents(
  open: StreamOpener,
  clock: Clock,
  callbacks: FollowerCallbacks,
  signal: AbortSignal,
): Promise<FollowEnding> {
  const parser = new SseParser();
  let connected = false;
  let failures = 0;
  for (;;) {
    if (signal.aborted) return { kind: 'aborted' };
    const opening = await openOrAbort(open, parser.lastId, signal);
    if (opening === null) return { kind: 'aborted' };
    if (opening.kind === 'answer') {
      if (!connected || judgeAnswer(opening.answer).kind !== 'transient') {
        return { kind: 'not-a-stream', answer: opening.answer, connectedBefore: connected };
      }
      callbacks.onDisconnected(describe(opening.answer));
    } else {
      callbacks.onConnected(connected);
      connected = true;
      const read = await readStream(opening, parser, callbacks, signal);
      if (signal.aborted) return { kind: 'aborted' };
      if (read.receivedBytes) failures = 0;
      callbacks.onDisconnected(read.reason);
    }
    failures += 1;
    if (failures >= MAX_RECONNECT_FAILURES) {
      return { kind: 'gave-up', reason: `the event stream failed ${failures} times in a row` };
    }
    await clock.sleep(Math.min(FIRST_BACKOFF_MS * 2 ** (failures - 1), MAX_BACKOFF_MS), signal);
  }
}

async function openOrAbort(
  open: StreamOpener,
  lastEventId: string | null,
  signal: AbortSignal,
): Promise<StreamOpening | null> {
  try {
    return await open(lastEventId, signal);
  } catch (error) {
    if (signal.aborted) return null;
    throw error;
  }
}

async function readStream(
  stream: Extract<StreamOpening, { kind: 'stream' }>,
  parser: SseParser,
  callbacks: FollowerCallbacks,
  signal: AbortSignal,
): Promise<{ readonly receivedBytes: boolean; readonly reason: string }> {
  let receivedBytes = false;
  const close = (): void => stream.close();
  signal.addEventListener('abort', close, { once: true });
  try {
    for await (const chunk of stream.chunks) {
      receivedBytes = true;
      for (const event of parser.push(chunk)) callbacks.onEvent(event);
    }
    return { receivedBytes, reason: 'the event stream ended' };
  } catch (error) {
    return {
      receivedBytes,
      reason: `the event stream broke: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    signal.removeEventListener('abort', close);
    stream.close();
  }
}

function describe(answer: GatewayAnswer): string {
  return answer.kind === 'network'
    ? `the event stream could not reconnect: ${answer.reason}`
    : `the event stream could not reconnect: HTTP ${answer.status}`;
}
