import type Redis from 'ioredis';
import { DEFAULTS } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import type { WakeJobResult } from '../queues/wake-job';
import { RELEASE_IF_HOLDER, RENEW_IF_HOLDER } from '../redis/holder-scripts';

export type GateEntry = { kind: 'acquired' } | { kind: 'held'; holderAttemptId: string };

const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if (not holder) or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ''
end
return holder`;

// A holder renews at a third of its lease, so two renewals can fail before the lease lapses.
const RENEWALS_PER_LEASE = 3;
const MIN_RENEW_INTERVAL_MS = 100;

/**
 * The singleton gate below the queue: at most one wake runs per volume, whoever
 * enqueued it. The queue's deduplication already folds our own producers'
 * starts into one job; this lock also covers direct producers and a stalled
 * job that BullMQ hands to a second worker. The holder id is the attempt id,
 * so a re-delivered job (same id) takes its own lock back after a crash.
 */
export class WakeGate {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** How long a published result stays readable: as long as a finished job is kept. */
    private readonly resultTtlSeconds: number = DEFAULTS.JOB_KEEP_COMPLETED_SECONDS,
  ) {}

  async enter(volumeId: string, attemptId: string, ttlMs: number): Promise<GateEntry> {
    const holder = (await this.redis.eval(
      ACQUIRE,
      1,
      this.keys.wakeLock(volumeId),
      attemptId,
      ttlMs,
    )) as string;
    return holder === '' ? { kind: 'acquired' } : { kind: 'held', holderAttemptId: holder };
  }

  async renew(volumeId: string, attemptId: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.eval(RENEW_IF_HOLDER, 1, this.keys.wakeLock(volumeId), attemptId, ttlMs)) === 1;
  }

  /**
   * Runs the work of an attempt that entered the gate: the lease is renewed
   * while it runs and the gate is left when it ends, however it ends. A failed
   * renewal or leave is not the work's failure: the lease then simply lapses.
   */
  async hold<T>(volumeId: string, attemptId: string, leaseMs: number, work: () => Promise<T>): Promise<T> {
    const renew = setInterval(
      () => void this.renew(volumeId, attemptId, leaseMs).catch(() => undefined),
      Math.max(MIN_RENEW_INTERVAL_MS, Math.floor(leaseMs / RENEWALS_PER_LEASE)),
    );
    try {
      return await work();
    } finally {
      clearInterval(renew);
      await this.leave(volumeId, attemptId).catch(() => undefined);
    }
  }

  async leave(volumeId: string, attemptId: string): Promise<void> {
    await this.redis.eval(RELEASE_IF_HOLDER, 1, this.keys.wakeLock(volumeId), attemptId);
  }

  async holder(volumeId: string): Promise<string | null> {
    return this.redis.get(this.keys.wakeLock(volumeId));
  }

  /** The holder publishes its result before leaving, so joiners read the same answer. */
  async publishResult(result: WakeJobResult): Promise<void> {
    await this.redis.set(
      this.keys.wakeResult(result.attemptId),
      JSON.stringify(result),
      'EX',
      this.resultTtlSeconds,
    );
  }

  async readResult(attemptId: string): Promise<WakeJobResult | null> {
    const raw = await this.redis.get(this.keys.wakeResult(attemptId));
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as WakeJobResult;
    } catch {
      return null;
    }
  }
}
