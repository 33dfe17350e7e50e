import type { Worker } from 'bullmq';
import type Redis from 'ioredis';
import { tickFreshness, type PodwardenConfig, type TickFreshness } from '@podwarden/policies';
import type { RedisKeys } from '../redis/redis-keys';
import { boundedRead } from '../redis/bounded-read';

/** One readiness item an app adds (the idle monitor: its scheduler, its setup); details go in the body. */
export interface ReadinessItem {
  readonly up: boolean;
  readonly details: Record<string, unknown>;
}

export type ReadinessCheck = () => Promise<ReadinessItem>;

/**
 * What a worker's readiness and metrics know: its BullMQ worker and, for the idle monitor, when the newest
 * tick completed, kept in Redis since ticks spread over replicas ("ticks stopped" means all of them).
 */
export class WorkerState {
  private worker: Worker | null = null;
  private lastTickAtMs: number | null = null;
  private readonly appChecks = new Map<string, ReadinessCheck>();

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

  /** Adds a check of the app's own to /health/ready, under `name`. */
  addCheck(name: string, check: ReadinessCheck): void {
    this.appChecks.set(name, check);
  }

  checks(): ReadonlyMap<string, ReadinessCheck> {
    return this.appChecks;
  }

  /** Records a completed tick here and in Redis; a failed write only leaves the other replicas' view older. */
  async tickCompleted(): Promise<void> {
    const at = this.now();
    this.lastTickAtMs = Math.max(at, this.lastTickAtMs ?? at);
    // One command: the connection bounds it (createRedis).
    await this.redis
      .set(this.keys.idleLastTick(), String(at), 'PX', this.tickMemoryMs())
      .catch(() => undefined);
  }

  /** The ticks' freshness from the newest completion known here or in Redis; null without ticks. */
  async tickFreshness(): Promise<TickFreshness | null> {
    if (!this.ticks) return null;
    const shared = await boundedRead(
      this.config,
      this.redis.get(this.keys.idleLastTick()),
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
