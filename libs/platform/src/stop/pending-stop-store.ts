import type Redis from 'ioredis';
import type { PendingStop } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { MicroBatch } from '../concurrency/micro-batch';
import { hgetallEach } from '../redis/read-each-hash';
import { readStored } from '../redis/stored-json';
import { pendingStopSchema } from './pending-stop.schema';

// A confirmed stop is kept for GET's stopConfirmed a day at most, whatever happens after.
const CONFIRMED_TTL_SECONDS = 86_400;

/**
 * Accepted stops the idle monitor follows until a tick sees their pods down
 * (`<prefix>:stop-pending:<pod>`, one hash field per pod id): in Redis, so
 * every replica and a restarted monitor carry on where the last tick left off.
 */
export class PendingStopStore {
  // Every configured pod's hash is read each tick: one command per batch, not one per pod.
  private readonly hashes = new MicroBatch((keys: readonly string[]) => hgetallEach(this.redis, keys));

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  /** A stop RunPod just accepted: followed from zero (a repeated stop restarts the count). */
  async track(podName: string, podId: string, trigger: string, at: number): Promise<void> {
    const entry: PendingStop = {
      podId,
      trigger,
      stoppedAt: at,
      ticksWaited: 0,
      restops: 0,
      confirmedAt: null,
    };
    const key = this.keys.pendingStops(podName);
    await this.redis.multi().hset(key, podId, JSON.stringify(entry)).persist(key).exec();
  }

  /** Every followed stop of the pod; an unreadable entry is dropped (it can only be our own write). */
  async all(podName: string): Promise<PendingStop[]> {
    const raw = await this.hashes.call(this.keys.pendingStops(podName));
    return Object.values(raw).flatMap((text) => {
      const entry = readStored(pendingStopSchema, text);
      return entry.kind === 'read' ? [entry.value] : [];
    });
  }

  /**
   * Writes one tick's verdicts (null forgets the entry). Once nothing is left
   * unconfirmed the key expires, so confirmations do not pile up.
   */
  async apply(podName: string, next: ReadonlyMap<string, PendingStop | null>): Promise<void> {
    const key = this.keys.pendingStops(podName);
    const multi = this.redis.multi();
    for (const [podId, entry] of next) {
      if (entry === null) multi.hdel(key, podId);
      else multi.hset(key, podId, JSON.stringify(entry));
    }
    const open = [...next.values()].some((entry) => entry !== null && entry.confirmedAt === null);
    if (open) multi.persist(key);
    else multi.expire(key, CONFIRMED_TTL_SECONDS);
    await multi.exec();
  }

  /** Stops not yet confirmed across these pods (for /metrics): one read per pod, all at once. */
  async unconfirmed(podNames: readonly string[]): Promise<number> {
    const entries = await Promise.all(podNames.map((name) => this.all(name)));
    return entries.flat().filter((entry) => entry.confirmedAt === null).length;
  }
}
