import { compareStreamIds, isStreamId, type PodEvent } from '@podwarden/platform';
import { eventFrame, heartbeatFrame, openingFrame } from './sse-frames';

/** Where a session writes: the HTTP response, reduced to what the session needs. */
export interface FrameSink {
  write(frame: string): void;
  end(): void;
}

export interface SessionTiming {
  readonly heartbeatMs: number;
  readonly retryMs: number;
}

/**
 * One client's event stream: live events arriving during the replay are held and sent after it, each at
 * most once in id order, so a reconnect with Last-Event-ID misses nothing retained and repeats nothing.
 */
export class EventStreamSession {
  private held: PodEvent[] | null = [];
  private lastSent: string | null;
  private heartbeat: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly sink: FrameSink,
    lastEventId: string | null,
    private readonly timing: SessionTiming,
  ) {
    this.lastSent = lastEventId !== null && isStreamId(lastEventId) ? lastEventId : null;
  }

  /** The id to replay from, or null when the client asked for live events only. */
  get replayFrom(): string | null {
    return this.lastSent;
  }

  /** Opens the stream: the replay first, then whatever arrived meanwhile, then live. */
  open(replay: readonly PodEvent[]): void {
    this.sink.write(openingFrame(this.timing.retryMs));
    for (const event of replay) this.send(event);
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.send(event);
    this.heartbeat = setInterval(() => this.sink.write(heartbeatFrame(new Date())), this.timing.heartbeatMs);
  }

  deliver(event: PodEvent): void {
    if (this.ended) return;
    if (this.held !== null) this.held.push(event);
    else this.send(event);
  }

  /** The client went away, or the gateway is shutting down. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.sink.end();
  }

  private send(event: PodEvent): void {
    if (this.lastSent !== null && compareStreamIds(event.id, this.lastSent) <= 0) return;
    this.lastSent = event.id;
    this.sink.write(eventFrame(event));
  }
}
