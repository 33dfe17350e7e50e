import type Redis from 'ioredis';
import type { ProxyActivity } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';

/**
 * How long a forwarded request counts as in flight without a renewal: the
 * proxy renews its requests well within it, so only a replica that died with
 * requests open leaves entries behind, and they lapse after this.
 */
export const PROXY_ACTIVITY_LEASE_MS = 30_000;

// Every script reads the time from Redis (ARGV[1] empty), so leases and the
// last end are written and judged on one clock: a proxy whose clock is minutes
// behind the idle monitor's must not make a running request look lapsed. A
// test that moves its own clock passes it as ARGV[1].
const CLOCK = `
local function clock()
  if ARGV[1] ~= '' then return tonumber(ARGV[1]) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

// ARGV: clock, lease, 'XX' for a renewal (a request already ended stays ended) or '', request ids.
const LEASE = `${CLOCK}
local expiry = clock() + tonumber(ARGV[2])
for i = 4, #ARGV do
  if ARGV[3] == 'XX' then redis.call('ZADD', KEYS[1], 'XX', expiry, ARGV[i])
  else redis.call('ZADD', KEYS[1], expiry, ARGV[i]) end
end
return 1`;

// ARGV: clock, request id.
const END = `${CLOCK}
local now = clock()
redis.call('ZREM', KEYS[1], ARGV[2])
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if now > last then redis.call('SET', KEYS[2], now) end
return 1`;

// ARGV: clock. Answers the count, the last end and the clock it judged by.
const READ = `${CLOCK}
local now = clock()
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return { redis.call('ZCARD', KEYS[1]), redis.call('GET', KEYS[2]), tostring(now) }`;

/**
 * The inference proxies' traffic per pod, in Redis so the idle monitor counts
 * every replica's requests: a sorted set of the requests in flight (member:
 * request id, score: lease expiry) and the time the last one ended, both on
 * Redis's clock. `at` (epoch ms) replaces Redis's clock for tests that move
 * time themselves; production callers leave it out.
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

  async begin(podName: string, requestId: string, at?: number): Promise<void> {
    await this.lease(podName, [requestId], '', at);
  }

  /** Extends the lease of requests still open (an ended request is not brought back). */
  async renew(podName: string, requestIds: readonly string[], at?: number): Promise<void> {
    if (requestIds.length === 0) return;
    await this.lease(podName, requestIds, 'XX', at);
  }

  /** Removes the request and moves the last-ended time forward (never back: replicas end out of order). */
  async end(podName: string, requestId: string, at?: number): Promise<void> {
    await this.redis.eval(
      END,
      2,
      this.keys.proxyInFlight(podName),
      this.keys.proxyLastEnded(podName),
      clockArg(at),
      requestId,
    );
  }

  /**
   * Lapsed entries (a replica that died mid-request) are dropped before
   * counting. `lastEndedAt` comes back on the reader's clock (`readerNow`):
   * its age on Redis's clock, counted back from the reader's now, so the
   * reader compares it with its own earlier readings (the last tick).
   */
  async read(podName: string, readerNow: number = Date.now(), at?: number): Promise<ProxyActivity> {
    const [inFlight, last, judgedAt] = (await this.redis.eval(
      READ,
      2,
      this.keys.proxyInFlight(podName),
      this.keys.proxyLastEnded(podName),
      clockArg(at),
    )) as [number, string | null, string];
    const lastEnded = last === null ? NaN : Number(last);
    return {
      inFlight: Number(inFlight),
      lastEndedAt: Number.isFinite(lastEnded) ? readerNow - (Number(judgedAt) - lastEnded) : null,
    };
  }

  private async lease(
    podName: string,
    requestIds: readonly string[],
    flag: '' | 'XX',
    at?: number,
  ): Promise<void> {
    await this.redis.eval(
      LEASE,
      1,
      this.keys.proxyInFlight(podName),
      clockArg(at),
      this.leaseMs,
      flag,
      ...requestIds,
    );
  }
}

function clockArg(at: number | undefined): string {
  return at === undefined ? '' : String(at);
}
