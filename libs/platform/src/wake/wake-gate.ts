import type Redis from 'ioredis';
import { DEFAULTS } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import type { WakeJobResult } from '../queues/wake-job';
import { RELEASE_IF_HOLDER, RENEW_IF_HOLDER } from '../redis/holder-scripts';
import { attemptOfValue, leaseValue, WakeFence, type GateLease } from './wake-fence';

export type GateEntry = { kind: 'acquired'; lease: GateLease } | { kind: 'held'; holderAttemptId: string };

// Free, or held by this same attempt (a re-delivered job): take it with the next fencing token.
// The attempt's first token is kept (KEYS[3]): a stop after it fences every re-delivery too.
const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if (not holder) or holder == ARGV[1] or string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '#' then
  local token = redis.call('INCR', KEYS[2])
  redis.call('SET', KEYS[1], ARGV[1] .. '#' .. token, 'PX', ARGV[2])
  redis.call('SET', KEYS[3], token, 'NX', 'EX', ARGV[3])
  return {1, tostring(token), tostring(redis.call('GET', KEYS[3]) or token)}
end
return {0, holder}`;

// An operator's stop: a new token no run holds, remembered as the stop's, and the gate taken away.
const STOP = `
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[3], token, 'EX', ARGV[1])
redis.call('DEL', KEYS[1])
return token`;

// Long enough for any run that started before the stop to end.
const STOP_MARK_SECONDS = 24 * 60 * 60;

// A holder renews at a third of its lease, so two renewals can fail before the lease lapses.
const RENEWALS_PER_LEASE = 3;
const MIN_RENEW_INTERVAL_MS = 100;

/**
 * The singleton gate below the queue: at most one wake runs per volume, whoever
 * enqueued it. The queue's deduplication already folds our own producers'
 * starts into one job; this lock also covers direct producers and a stalled
 * job that BullMQ hands to a second worker. Every acquisition takes a new
 * fencing token (Redis INCR) and the gate holds `attempt#token`: a re-delivered
 * job (same attempt id) takes the gate back with a new token, and the old run,
 * if still alive, fails its fence check before any billable call. An
 * operator's stop fences the attempt for good: a re-delivery after it (its
 * waker died) is judged on the attempt's first token and ends as stopped.
 */
export class WakeGate {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** How long a published result stays readable: as long as a finished job is kept. */
    private readonly resultTtlSeconds: number = DEFAULTS.JOB_KEEP_COMPLETED_SECONDS,
  ) {}

  async enter(volumeId: string, attemptId: string, ttlMs: number): Promise<GateEntry> {
    const [acquired, value, first] = (await this.redis.eval(
      ACQUIRE,
      3,
      this.keys.wakeLock(volumeId),
      this.keys.wakeFence(volumeId),
      this.keys.wakeFirstToken(attemptId),
      attemptId,
      ttlMs,
      STOP_MARK_SECONDS,
    )) as [number, string, string?];
    return acquired === 1
      ? { kind: 'acquired', lease: { attemptId, token: Number(value), firstToken: Number(first ?? value) } }
      : { kind: 'held', holderAttemptId: attemptOfValue(value) };
  }

  async renew(volumeId: string, lease: GateLease, ttlMs: number): Promise<boolean> {
    const value = leaseValue(lease);
    return (await this.redis.eval(RENEW_IF_HOLDER, 1, this.keys.wakeLock(volumeId), value, ttlMs)) === 1;
  }

  /**
   * An operator's stop for the volume: whatever wake holds the gate loses it
   * at its next fence check (and its renewal), and learns it was stopped.
   * A wake that enters afterwards takes a newer token and runs as usual.
   */
  async stopWakes(volumeId: string): Promise<number> {
    return (await this.redis.eval(
      STOP,
      3,
      this.keys.wakeLock(volumeId),
      this.keys.wakeFence(volumeId),
      this.keys.wakeStopped(volumeId),
      STOP_MARK_SECONDS,
    )) as number;
  }

  /**
   * Runs the work of an acquisition: the lease is renewed while it runs and
   * the gate is left when it ends, however it ends. A renewal that fails (not
   * ours any more, or Redis unreachable) marks the fence lost: the work makes
   * no billable call after that. A failed leave lets the lease lapse.
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
    await this.redis.eval(RELEASE_IF_HOLDER, 1, this.keys.wakeLock(volumeId), leaseValue(lease));
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
