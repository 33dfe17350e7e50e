import type { Worker } from 'bullmq';
import type Redis from 'ioredis';
import { tickFreshness, type PodwardenConfig, type TickFreshness } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { withinTimeout } from '../util/within-timeout';

/**
 * What a worker's readiness and metrics know about it: its BullMQ worker
 * (attached once Nest has built it) and, for the idle monitor, when the newest
 * tick completed. That time is shared in Redis: the ticks are spread over the
 * replicas, so "ticks stopped" is about all of them, not one replica's share.
 */
export class WorkerState {
  private worker: Worker | null = null;
  private lastTickAtMs: number | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly config: PodwardenConfig,
    readonly ticks: boolean,
    private readonly now: () => number = Date.now,
    readonly startedAtMs: number = now(),
  ) {}

  attach(worker: Worker): void {
    this.worker = worker;
  }

  /** Taking jobs: attached, running, neither paused nor closing (a worker shutting down is not ready). */
  workerTakingJobs(): boolean {
    const worker = this.worker;
    return worker !== null && worker.isRunning() && !worker.isPaused() && worker.closing === undefined;
  }

  /** Records a completed tick here and in Redis; a failed write only leaves the other replicas' view older. */
  async tickCompleted(): Promise<void> {
    const at = this.now();
    this.lastTickAtMs = Math.max(at, this.lastTickAtMs ?? at);
    const write = this.redis.set(this.keys.idleLastTick(), String(at), 'PX', this.tickMemoryMs());
    await withinTimeout(write, this.config.tuning.redisWriteTimeoutMs, 'last tick write').catch(
      () => undefined,
    );
  }

  /** The ticks' freshness from the newest completion known here or in Redis; null without ticks. */
  async tickFreshness(): Promise<TickFreshness | null> {
    if (!this.ticks) return null;
    const shared = await withinTimeout(
      this.redis.get(this.keys.idleLastTick()),
      this.config.tuning.redisReadTimeoutMs,
      'last tick read',
    ).catch(() => null);
    const sharedAt = shared === null ? NaN : Number(shared);
    const newest = Math.max(this.lastTickAtMs ?? 0, Number.isFinite(sharedAt) ? sharedAt : 0);
    return tickFreshness({
      checkSeconds: this.config.checkSeconds,
      startedAtMs: this.startedAtMs,
      lastCompletedAtMs: newest > 0 ? newest : null,
      nowMs: this.now(),
    });
  }

  async tickAgeSeconds(): Promise<number | null> {
    const freshness = await this.tickFreshness();
    return freshness === null ? null : freshness.ageMs / 1000;
  }

  /** The key outlives any staleness bound, and does not linger once every monitor is gone. */
  private tickMemoryMs(): number {
    return this.config.checkSeconds * 10_000 + 3_600_000;
  }
}
