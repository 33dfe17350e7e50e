import type Redis from 'ioredis';
import type { AppLogger } from '../logging/logger';
import type { RedisKeys } from '../redis/redis-keys';
import { errorMessage } from '../util/error-message';
import type { PodEvent } from './pod-event';
import { eventsOf, PodEventReader } from './pod-event-reader';

export interface PodEventTailOptions {
  /** How long one XREAD blocks; also how soon stop() is noticed without a disconnect. */
  readonly blockMs: number;
  /** Back-off after a failed read (Redis down): the tail retries, it never gives up. */
  readonly retryMs: number;
}

/**
 * Follows every pod's event stream on one dedicated connection (XREAD BLOCK ties it up), delivering in
 * stream order per pod only what is published after start(); replay is the reader's job.
 */
export class PodEventTail {
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly cursors = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly podNames: readonly string[],
    private readonly deliver: (podName: string, event: PodEvent) => void,
    private readonly logger: AppLogger,
    private readonly options: PodEventTailOptions,
  ) {}

  /** Resolves once the cursors are placed: an event published after this is delivered. */
  async start(): Promise<void> {
    if (this.running) return;
    const reader = new PodEventReader(this.redis, this.keys);
    for (const name of this.podNames) this.cursors.set(name, (await reader.lastId(name)) ?? '0-0');
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    // A blocked XREAD answers only after blockMs; the connection is ours alone, so drop it.
    this.redis.disconnect();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.readOnce();
      } catch (error) {
        if (!this.running) return;
        this.logger.warn({ err: errorMessage(error) }, 'pod event stream read failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, this.options.retryMs));
      }
    }
  }

  private async readOnce(): Promise<void> {
    const names = [...this.cursors.keys()];
    if (names.length === 0) {
      this.running = false;
      return;
    }
    const keys = names.map((name) => this.keys.events(name));
    const ids = names.map((name) => this.cursors.get(name) as string);
    const answer = (await this.redis.xread(
      'COUNT',
      500,
      'BLOCK',
      this.options.blockMs,
      'STREAMS',
      ...keys,
      ...ids,
    )) as [key: string, entries: [string, string[]][]][] | null;
    for (const [key, entries] of answer ?? []) {
      const name = names[keys.indexOf(key)];
      if (name === undefined || entries.length === 0) continue;
      this.cursors.set(name, entries[entries.length - 1][0]);
      for (const event of eventsOf(entries)) this.deliver(name, event);
    }
  }
}
