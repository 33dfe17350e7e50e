import type Redis from 'ioredis';
import type { ProxyActivity } from '@podwarden/policies';
import type { SharedClock } from '../redis/redis-clock';
import type { RedisKeys } from '../redis/redis-keys';
import { MicroBatch } from '../concurrency/micro-batch';
import { endRequest, leaseRequests, readActivityEach } from './scripts/proxy-scripts';

/**
 * How long a forwarded request counts as in flight without a renewal: the
 * proxy renews its requests well within it, so only a replica that died with
 * requests open leaves entries behind, and they lapse after this.
 */
export const PROXY_ACTIVITY_LEASE_MS = 30_000;

// Every script is given the shared clock's time (ARGV[1]), so leases and the
// last end are written and judged on one clock: a proxy whose clock is minutes
// behind the idle monitor's must not make a running request look lapsed.

/**
 * The proxies' traffic per pod, in Redis so the idle monitor counts every replica's requests: requests in
 * flight (id scored by lease expiry) and when the last one ended, on the shared clock (Redis's).
 */
export class ProxyActivityStore {
  // A tick's pods read together: one clock read and one script per batch.
  private readonly reads = new MicroBatch(async (podNames: readonly string[]) => {
    const now = await this.clock.now();
    const keys = podNames.flatMap((name) => [this.keys.proxyInFlight(name), this.keys.proxyLastEnded(name)]);
    return readActivityEach(this.redis, keys, [String(now)]);
  });

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly clock: SharedClock,
    private readonly leaseMs: number = PROXY_ACTIVITY_LEASE_MS,
  ) {}

  get renewEveryMs(): number {
    return Math.max(100, Math.floor(this.leaseMs / 3));
  }

  async begin(podName: string, requestId: string): Promise<void> {
    await this.lease(podName, [requestId], '');
  }

  /** Extends the lease of requests still open (an ended request is not brought back). */
  async renew(podName: string, requestIds: readonly string[]): Promise<void> {
    if (requestIds.length === 0) return;
    await this.lease(podName, requestIds, 'XX');
  }

  /** Removes the request and moves the last-ended time forward (never back: replicas end out of order). */
  async end(podName: string, requestId: string): Promise<void> {
    const now = await this.clock.now();
    await endRequest(
      this.redis,
      [this.keys.proxyInFlight(podName), this.keys.proxyLastEnded(podName)],
      [String(now), requestId],
    );
  }

  /**
   * Lapsed entries (a replica that died mid-request) are dropped before counting. `lastEndedAt` comes back
   * on the reader's clock (its shared-clock age before `readerNow`), comparable with the reader's last tick.
   */
  async read(podName: string, readerNow: number): Promise<ProxyActivity> {
    const [inFlight, last, judgedAt] = await this.reads.call(podName);
    const lastEnded = last === null ? NaN : Number(last);
    return {
      inFlight: Number(inFlight),
      lastEndedAt: Number.isFinite(lastEnded) ? readerNow - (Number(judgedAt) - lastEnded) : null,
    };
  }

  private async lease(podName: string, requestIds: readonly string[], flag: '' | 'XX'): Promise<void> {
    const now = await this.clock.now();
    await leaseRequests(
      this.redis,
      [this.keys.proxyInFlight(podName)],
      [String(now), this.leaseMs, flag, ...requestIds],
    );
  }
}
