import type Redis from 'ioredis';
import { INITIAL_IDLE_STATE, type BaselineBook, type IdleState } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';

/** Everything the idle monitor remembers about one configured pod, in Redis so no replica or restart forgets it. */
export interface IdleRecord {
  readonly state: IdleState;
  readonly baselines: BaselineBook;
  readonly updatedAt: number | null;
  /** The tick job that last advanced this record: a tick re-run after a stall must not count twice. */
  readonly lastTickId: string | null;
  /** When that tick was scheduled: a stalled older tick delivered late must not count again either. */
  readonly lastTickScheduledAt?: number | null;
}

export const EMPTY_IDLE_RECORD: IdleRecord = {
  state: INITIAL_IDLE_STATE,
  baselines: {},
  updatedAt: null,
  lastTickId: null,
};

const LOCK_POLL_MS = 50;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export class IdleStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async load(podName: string): Promise<IdleRecord> {
    const raw = await this.redis.get(this.keys.idleState(podName));
    if (raw === null) return EMPTY_IDLE_RECORD;
    try {
      const parsed = JSON.parse(raw) as Partial<IdleRecord>;
      return {
        state: { ...INITIAL_IDLE_STATE, ...(parsed.state ?? {}) },
        baselines: parsed.baselines ?? {},
        updatedAt: parsed.updatedAt ?? null,
        lastTickId: parsed.lastTickId ?? null,
        lastTickScheduledAt: parsed.lastTickScheduledAt ?? null,
      };
    } catch {
      return EMPTY_IDLE_RECORD;
    }
  }

  async save(podName: string, record: IdleRecord): Promise<void> {
    await this.redis.set(this.keys.idleState(podName), JSON.stringify(record));
  }

  /**
   * Serialises every writer of one pod's idle state (ticks on any replica, a
   * manual stop's Down edge). Returns null when the lock stays busy past
   * waitMs; the caller decides whether to skip (a tick) or proceed. The
   * lease is renewed while the work runs, so it can be short: a holder that
   * dies frees the pod within one lease.
   */
  async withLock<T>(
    podName: string,
    token: string,
    leaseMs: number,
    waitMs: number,
    work: () => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }> {
    const key = this.keys.idleLock(podName);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const got = await this.redis.set(key, token, 'PX', leaseMs, 'NX');
      if (got === 'OK') break;
      if (Date.now() >= deadline) return { ran: false };
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
    const renew = setInterval(
      () => {
        void this.redis.eval(RENEW, 1, key, token, leaseMs).catch(() => undefined);
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    try {
      return { ran: true, value: await work() };
    } finally {
      clearInterval(renew);
      await this.redis.eval(RELEASE, 1, key, token).catch(() => undefined);
    }
  }
}
