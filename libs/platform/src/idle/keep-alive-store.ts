import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';

/**
 * An operator's "keep this pod up until …", one key per pod holding the
 * deadline in epoch milliseconds. The key expires at the deadline, so a
 * lapsed keep-alive leaves nothing behind to clean up.
 */
export class KeepAliveStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** Replaces any keep-alive of the pod; a deadline already past clears it. */
  async set(podName: string, untilMs: number, now: number = Date.now()): Promise<void> {
    const ttlMs = Math.ceil(untilMs - now);
    if (ttlMs <= 0) {
      await this.clear(podName);
      return;
    }
    await this.redis.set(this.keys.keepAlive(podName), String(untilMs), 'PX', ttlMs);
  }

  async clear(podName: string): Promise<void> {
    await this.redis.del(this.keys.keepAlive(podName));
  }

  /** The deadline, or null when there is none (or the stored value is not a number). */
  async get(podName: string): Promise<number | null> {
    const raw = await this.redis.get(this.keys.keepAlive(podName));
    if (raw === null) return null;
    const until = Number(raw);
    return Number.isFinite(until) ? until : null;
  }
}
