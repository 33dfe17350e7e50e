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

  /**
   * The deadline, or null (none, or not a number). With `readerNow` it is the key's time left on Redis's
   * clock counted from `readerNow`, so a setter's skewed clock cannot make a holding keep-alive read as
   * lapsed; without it, as stored (the setter's clock).
   */
  async get(podName: string, readerNow?: number): Promise<number | null> {
    const key = this.keys.keepAlive(podName);
    const answers = await this.redis.multi().get(key).pttl(key).exec();
    const failed =
      answers === null ? new Error('keep-alive read aborted') : answers.find(([error]) => error)?.[0];
    if (failed) throw failed;
    const raw = answers![0][1] as string | null;
    const leftMs = Number(answers![1][1]);
    if (raw === null) return null;
    const until = Number(raw);
    if (!Number.isFinite(until)) return null;
    // -1: a key without expiry (never written so by set): keep the stored deadline.
    return readerNow === undefined || leftMs < 0 ? until : readerNow + leftMs;
  }
}
