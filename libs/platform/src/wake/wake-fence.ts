import type Redis from 'ioredis';
import type { RedisKeys } from '../redis/redis-keys';
import { checkFence } from './scripts/wake-scripts';

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

/** Thrown before a billable call the run may no longer make; the run ends without calling RunPod. */
export class FenceLostError extends Error {
  constructor(readonly state: Exclude<FenceState, 'held'>) {
    super(state === 'stopped' ? 'stopped by operator' : 'lost the wake gate (lease lapsed or re-taken)');
    this.name = 'FenceLostError';
  }
}

/**
 * One acquisition of a volume's wake gate: `assertHeld()` before every billable call is one atomic check.
 * A failed renewal, a re-delivery (new token) or an operator's stop make it throw, and `signal` aborts
 * the waits and reads in flight.
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
      answer = await checkFence(
        this.redis,
        [this.keys.wakeLock(this.volumeId), this.keys.wakeStopped(this.volumeId)],
        [leaseValue(this.lease), this.lease.firstToken],
      );
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
