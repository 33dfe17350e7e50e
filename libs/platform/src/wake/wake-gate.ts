import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';
import type { WakeJobResult } from '../queues/wake-job';

export type GateEntry = { kind: 'acquired' } | { kind: 'held'; holderAttemptId: string };

const ACQUIRE = `
local holder = redis.call('GET', KEYS[1])
if (not holder) or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ''
end
return holder`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const RESULT_TTL_SECONDS = 60 * 60;

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
    return (await this.redis.eval(RENEW, 1, this.keys.wakeLock(volumeId), attemptId, ttlMs)) === 1;
  }

  async leave(volumeId: string, attemptId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keys.wakeLock(volumeId), attemptId);
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
      RESULT_TTL_SECONDS,
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
