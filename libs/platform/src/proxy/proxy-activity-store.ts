import type Redis from 'ioredis';
import type { ProxyActivity } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';

/**
 * How long a forwarded request counts as in flight without a renewal: the
 * proxy renews its requests well within it, so only a replica that died with
 * requests open leaves entries behind, and they lapse after this.
 */
export const PROXY_ACTIVITY_LEASE_MS = 30_000;

const READ = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return { redis.call('ZCARD', KEYS[1]), redis.call('GET', KEYS[2]) }`;

const END = `
redis.call('ZREM', KEYS[1], ARGV[1])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[2]) > last then redis.call('SET', KEYS[2], ARGV[2]) end
return 1`;

/**
 * The inference proxies' traffic per pod, in Redis so the idle monitor counts
 * every replica's requests: a sorted set of the requests in flight (member:
 * request id, score: lease expiry) and the time the last one ended.
 */
export class ProxyActivityStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly leaseMs: number = PROXY_ACTIVITY_LEASE_MS,
  ) {}

  get renewEveryMs(): number {
    return Math.max(100, Math.floor(this.leaseMs / 3));
  }

  async begin(podName: string, requestId: string, now: number = Date.now()): Promise<void> {
    await this.redis.zadd(this.keys.proxyInFlight(podName), now + this.leaseMs, requestId);
  }

  /** Extends the lease of requests still open (XX: a request already ended stays ended). */
  async renew(podName: string, requestIds: readonly string[], now: number = Date.now()): Promise<void> {
    if (requestIds.length === 0) return;
    const expiry = now + this.leaseMs;
    const args = requestIds.flatMap((id) => [expiry, id]);
    await this.redis.zadd(this.keys.proxyInFlight(podName), 'XX', ...args);
  }

  /** Removes the request and moves the last-ended time forward (never back: replicas end out of order). */
  async end(podName: string, requestId: string, now: number = Date.now()): Promise<void> {
    await this.redis.eval(
      END,
      2,
      this.keys.proxyInFlight(podName),
      this.keys.proxyLastEnded(podName),
      requestId,
      now,
    );
  }

  /** Lapsed entries (a replica that died mid-request) are dropped before counting. */
  async read(podName: string, now: number = Date.now()): Promise<ProxyActivity> {
    const [inFlight, last] = (await this.redis.eval(
      READ,
      2,
      this.keys.proxyInFlight(podName),
      this.keys.proxyLastEnded(podName),
      now,
    )) as [number, string | null];
    const lastEndedAt = last === null ? null : Number(last);
    return {
      inFlight: Number(inFlight),
      lastEndedAt: lastEndedAt !== null && Number.isFinite(lastEndedAt) ? lastEndedAt : null,
    };
  }
}
