import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';

/** What a check of the fence found: still ours, taken by an operator's stop, or lost (lapsed or re-taken). */
export type FenceState = 'held' | 'stopped' | 'lost';

/** The gate's value for one acquisition: the attempt and its fencing token. */
export interface GateLease {
  readonly attemptId: string;
  readonly token: number;
  /** The token of the attempt's first acquisition: an operator's stop after it stops every re-delivery. */
  readonly firstToken: number;
}

export function leaseValue(lease: GateLease): string {
  return `${lease.attemptId}#${lease.token}`;
}

/** The attempt id of a gate value (a value without a token is a bare attempt id). */
export function attemptOfValue(value: string): string {
  const hash = value.lastIndexOf('#');
  return hash < 0 ? value : value.slice(0, hash);
}

// Stopped first: a re-delivered attempt holds the gate again, yet an operator stopped it.
const CHECK = `
local stopped = tonumber(redis.call('GET', KEYS[2]) or '0')
if stopped > tonumber(ARGV[2]) then return 2 end
if redis.call('GET', KEYS[1]) == ARGV[1] then return 1 end
return 0`;

/** Thrown before a billable call the run may no longer make; the run ends without calling RunPod. */
export class FenceLostError extends Error {
  constructor(readonly state: Exclude<FenceState, 'held'>) {
    super(state === 'stopped' ? 'stopped by operator' : 'lost the wake gate (lease lapsed or re-taken)');
    this.name = 'FenceLostError';
  }
}

/**
 * One acquisition of a volume's wake gate, as the run holding it sees it.
 * Before every billable call the run asks `assertHeld()`: one atomic Redis
 * check that the gate still holds this acquisition's value. A lease renewal
 * that failed, a re-delivery of the same job (a new token) or an operator's
 * stop (which takes the gate away) all make it throw, and `signal` aborts so
 * waits and reads in flight end too.
 */
export class WakeFence {
  private readonly controller = new AbortController();
  private state: FenceState = 'held';

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    readonly volumeId: string,
    readonly lease: GateLease,
  ) {}

  get token(): number {
    return this.lease.token;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The renewal loop lost the lease (or could not reach Redis): no billable call from now on. */
  markLost(state: Exclude<FenceState, 'held'> = 'lost'): void {
    if (this.state !== 'held') return;
    this.state = state;
    this.controller.abort(new FenceLostError(state));
  }

  async check(): Promise<FenceState> {
    if (this.state !== 'held') return this.state;
    let answer: number;
    try {
      answer = (await this.redis.eval(
        CHECK,
        2,
        this.keys.wakeLock(this.volumeId),
        this.keys.wakeStopped(this.volumeId),
        leaseValue(this.lease),
        this.lease.firstToken,
      )) as number;
    } catch {
      // Unreadable is never "still ours": fail closed.
      answer = 0;
    }
    if (answer !== 1) this.markLost(answer === 2 ? 'stopped' : 'lost');
    return this.state;
  }

  async assertHeld(): Promise<void> {
    const state = await this.check();
    if (state !== 'held') throw new FenceLostError(state);
  }
}
