import type Redis from 'ioredis';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import { errorMessage } from '../util/error-message';
import { withinTimeout } from '../util/within-timeout';
import { POD_EVENT_RETENTION, type PodEventData, type PodEventType } from './pod-event';

/** What an app needs to announce something about a pod. */
export interface PodEventSink {
  publish(podName: string, type: PodEventType, data: PodEventData): Promise<string | null>;
}

/**
 * Appends a pod's events to its capped Redis stream, read by every gateway. An event is a notification,
 * not a record: a failed or slow append is a Warning and never fails the wake, tick or stop behind it.
 */
export class PodEventPublisher implements PodEventSink {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly logger: AppLogger,
    private readonly writeTimeoutMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The new event's id, or null when Redis did not take it. */
  async publish(podName: string, type: PodEventType, data: PodEventData): Promise<string | null> {
    const body = JSON.stringify({ pod: podName, at: this.now().toISOString(), ...data });
    try {
      const id = await withinTimeout(
        this.redis.xadd(
          this.keys.events(podName),
          'MAXLEN',
          '~',
          String(POD_EVENT_RETENTION),
          '*',
          'type',
          type,
          'data',
          body,
        ),
        this.writeTimeoutMs,
        'pod event append',
      );
      return id;
    } catch (error) {
      this.logger.warn({ pod: podName, event: type, err: errorMessage(error) }, 'pod event not published');
      return null;
    }
  }
}
