import type Redis from 'ioredis';
import { DEFAULTS } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import type { WakeJobResult } from '../queues/wake-job';
import { wakeJobResultSchema } from '../queues/wake-job-result.schema';
import { releaseIfHolder, renewIfHolder } from '../redis/holder-scripts';
import { readStored } from '../redis/stored-json';
import { attemptOfValue, leaseValue, WakeFence, type GateLease } from './wake-fence';
import { claimGate, stopWakes } from './scripts/wake-scripts';

export type GateEntry = { kind: 'acquired'; lease: GateLease } | { kind: 'held'; holderAttemptId: string };

// Long enough for any run that started before the stop to end.
const STOP_MARK_SECONDS = 24 * 60 * 60;

// A holder renews at a third of its lease, so two renewals can fail before the lease lapses.
const RENEWALS_PER_LEASE = 3;
const MIN_RENEW_INTERVAL_MS = 100;

/**
 * At most one wake per volume, whoever enqueued it (direct producers, a stalled job re-delivered).
 * Each acquisition takes a new fencing token, so an older run of the same attempt fails its fence before
 * a billable call; an operator's stop fences the attempt for good (docs/cost-guards.md, the fenced gate).
 */
export class WakeGate {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** How long a published result stays readable: as long as a finished job is kept. */
    private readonly resultTtlSeconds: number = DEFAULTS.JOB_KEEP_COMPLETED_SECONDS,
  ) {}

  async enter(volumeId: string, attemptId: string, ttlMs: number): Promise<GateEntry> {
    const [acquired, value, first] = await claimGate(
      this.redis,
      [this.keys.wakeLock(volumeId), this.keys.wakeFence(volumeId), this.keys.wakeFirstToken(attemptId)],
      [attemptId, ttlMs, STOP_MARK_SECONDS],
    );
    return acquired === 1
      ? { kind: 'acquired', lease: { attemptId, token: Number(value), firstToken: Number(first ?? value) } }
      : { kind: 'held', holderAttemptId: attemptOfValue(value) };
  }

  async renew(volumeId: string, lease: GateLease, ttlMs: number): Promise<boolean> {
    const value = leaseValue(lease);
    return (await renewIfHolder(this.redis, [this.keys.wakeLock(volumeId)], [value, ttlMs])) === 1;
  }

  /**
   * An operator's stop for the volume: whatever wake holds the gate loses it
   * at its next fence check (and its renewal), and learns it was stopped.
   * A wake that enters afterwards takes a newer token and runs as usual.
   */
  async stopWakes(volumeId: string): Promise<number> {
    return stopWakes(
      this.redis,
      [this.keys.wakeLock(volumeId), this.keys.wakeFence(volumeId), this.keys.wakeStopped(volumeId)],
      [STOP_MARK_SECONDS],
    );
  }

  /**
   * Runs an acquisition's work, renewing the lease and leaving the gate however it ends. A failed renewal
   * marks the fence lost, so the work makes no billable call after it; a failed leave lets the lease lapse.
   */
  async hold<T>(
    volumeId: string,
    lease: GateLease,
    leaseMs: number,
    work: (fence: WakeFence) => Promise<T>,
  ): Promise<T> {
    const fence = new WakeFence(this.redis, this.keys, volumeId, lease);
    const renew = setInterval(
      () =>
        void this.renew(volumeId, lease, leaseMs).then(
          (renewed) => renewed || void fence.check(),
          () => fence.markLost(),
        ),
      Math.max(MIN_RENEW_INTERVAL_MS, Math.floor(leaseMs / RENEWALS_PER_LEASE)),
    );
    try {
      return await work(fence);
    } finally {
      clearInterval(renew);
      await this.leave(volumeId, lease).catch(() => undefined);
    }
  }

  async leave(volumeId: string, lease: GateLease): Promise<void> {
    await releaseIfHolder(this.redis, [this.keys.wakeLock(volumeId)], [leaseValue(lease)]);
  }

  /** The attempt holding the gate, or null. */
  async holder(volumeId: string): Promise<string | null> {
    const value = await this.redis.get(this.keys.wakeLock(volumeId));
    return value === null ? null : attemptOfValue(value);
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

  /**
   * The published result, or null when none is: an unreadable one (not JSON, or an outcome we cannot
   * read) counts as not published, never as a success; readers fall back to the job's own state.
   */
  async readResult(attemptId: string): Promise<WakeJobResult | null> {
    const raw = await this.redis.get(this.keys.wakeResult(attemptId));
    if (raw === null) return null;
    const read = readStored(wakeJobResultSchema, raw);
    return read.kind === 'read' ? read.value : null;
  }
}
