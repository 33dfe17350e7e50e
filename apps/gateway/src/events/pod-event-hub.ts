import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  PodEventTail,
  REDIS_KEYS,
  createRedis,
  type AppLogger,
  type PodEvent,
  type RedisKeys,
  boundedRead,
} from '@podwarden/platform';

/** One open event stream of this gateway. */
export interface EventListener {
  deliver(event: PodEvent): void;
  /** The gateway is shutting down: finish the response. */
  end(): void;
}

// XREAD BLOCK's wait: short enough that a lost connection is noticed soon, long enough to cost nothing.
const BLOCK_MS = 5_000;
const RETRY_MS = 1_000;

/**
 * This gateway's one reader of the event streams: a dedicated connection (XREAD BLOCK holds it) from the
 * first subscriber, fanned out in memory to every open stream; each replica has its own.
 */
@Injectable()
export class PodEventHub implements BeforeApplicationShutdown {
  private readonly listeners = new Map<string, Set<EventListener>>();
  private starting: Promise<PodEventTail> | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(REDIS_KEYS) private readonly keys: RedisKeys,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  /** Resolves once every event published from now on reaches `listener`; returns the unsubscribe. */
  async subscribe(podName: string, listener: EventListener): Promise<() => void> {
    const key = podName.toLowerCase();
    const set = this.listeners.get(key) ?? new Set<EventListener>();
    this.listeners.set(key, set);
    set.add(listener);
    const unsubscribe = (): void => {
      set.delete(listener);
    };
    try {
      await this.tail();
    } catch (error) {
      unsubscribe();
      throw error;
    }
    return unsubscribe;
  }

  /** How many streams are open (metrics and specs). */
  get openStreams(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const set of this.listeners.values()) for (const listener of [...set]) listener.end();
    this.listeners.clear();
    const starting = this.starting;
    this.starting = null;
    if (starting) await (await starting.catch(() => null))?.stop();
  }

  private tail(): Promise<PodEventTail> {
    this.starting ??= this.startTail().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  private async startTail(): Promise<PodEventTail> {
    const redis = createRedis(this.config.redis, 'worker');
    const tail = new PodEventTail(
      redis,
      this.keys,
      this.config.pods.map((pod) => pod.name),
      (podName, event) => this.deliver(podName, event),
      this.logger,
      { blockMs: BLOCK_MS, retryMs: RETRY_MS },
    );
    try {
      // The tail's connection waits for Redis for ever; a subscriber must not.
      await boundedRead(this.config, tail.start(), 'event stream start');
    } catch (error) {
      redis.disconnect();
      throw error;
    }
    return tail;
  }

  private deliver(podName: string, event: PodEvent): void {
    for (const listener of this.listeners.get(podName.toLowerCase()) ?? []) listener.deliver(event);
  }
}
