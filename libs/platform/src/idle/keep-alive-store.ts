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
   * The deadline, or null when there is none (or the stored value is not a
   * number). Without `readerNow`: as stored, on the setter's clock (a gateway).
   * With it: on the reader's clock, as the key's time left by Redis's clock
   * counted from `readerNow`, so a setter minutes behind the reader does not
   * make a keep-alive read as lapsed while it holds (the key expires on
   * Redis's clock, exactly when it was meant to).
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
