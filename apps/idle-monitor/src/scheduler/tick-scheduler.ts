import type { Queue } from 'bullmq';
import {
  schedulerPresence,
  type PodwardenConfig,
  type SchedulerPresence,
  type SchedulerReading,
} from '@podwarden/policies';
import {
  IDLE_TICK_JOB,
  IDLE_TICK_SCHEDULER_ID,
  errorMessage,
  jobRetention,
  withinTimeout,
  type AppLogger,
  boundedRead,
} from '@podwarden/platform';

export type TickSchedulerQueue = Pick<Queue, 'upsertJobScheduler' | 'getJobScheduler' | 'getJobState'>;

/** Why a check ran: the monitor's own timer, or the queue's connection (re)connecting. */
export type SchedulerCheckCause = 'timer' | 'reconnect';

export interface TickSchedulerDeps {
  readonly queue: TickSchedulerQueue;
  readonly config: PodwardenConfig;
  readonly logger: AppLogger;
}

/**
 * The idle ticks' job scheduler, upserted at start-up and whenever found missing: a Redis restarted empty,
 * flushed or failed over keeps none, and without it no tick runs. Idempotent from every replica.
 */
export class TickScheduler {
  private restoredCount = 0;
  private failing = false;

  constructor(private readonly deps: TickSchedulerDeps) {}

  /** Schedulers this replica restored since start-up. */
  get restored(): number {
    return this.restoredCount;
  }

  /** One tick per CHECK_SECONDS however many replicas; a changed CHECK_SECONDS replaces the interval. */
  async upsert(): Promise<void> {
    const { config } = this.deps;
    await this.deps.queue.upsertJobScheduler(
      IDLE_TICK_SCHEDULER_ID,
      { every: config.checkSeconds * 1000 },
      { name: IDLE_TICK_JOB, data: {}, opts: jobRetention(config.tuning) },
    );
  }

  /** Whether the scheduler is in Redis with its next job; unknown when Redis does not answer in time. */
  async presence(): Promise<SchedulerPresence> {
    const reading = await boundedRead(this.deps.config, this.read(), 'tick scheduler read').catch(
      (): SchedulerReading => ({ kind: 'unreadable' }),
    );
    return schedulerPresence(reading);
  }

  /** Restores a missing scheduler; what it leaves: present, still missing (the write failed), or unknown. */
  async ensure(cause: SchedulerCheckCause): Promise<SchedulerPresence> {
    const presence = await this.presence();
    if (presence !== 'missing') return presence;
    const { config, logger } = this.deps;
    try {
      await withinTimeout(this.upsert(), config.tuning.redisWriteTimeoutMs, 'tick scheduler restore');
    } catch (error) {
      // Once per failing spell: the check repeats every few ticks.
      if (!this.failing)
        logger.warn({ cause, err: errorMessage(error) }, 'idle tick scheduler missing and not restored');
      this.failing = true;
      return 'missing';
    }
    this.failing = false;
    this.restoredCount += 1;
    logger.warn(
      { cause, checkSeconds: config.checkSeconds },
      'idle tick scheduler was missing from Redis (emptied, flushed or failed over); restored',
    );
    return 'present';
  }

  private async read(): Promise<SchedulerReading> {
    const { queue } = this.deps;
    const nextRunAt = await this.nextRunAt();
    if (nextRunAt === null) return { kind: 'absent' };
    const state = await queue.getJobState(`repeat:${IDLE_TICK_SCHEDULER_ID}:${nextRunAt}`);
    if (state !== 'unknown') return { kind: 'present', nextRunAt, nextJobFound: true, nextRunAgainAt: null };
    return { kind: 'present', nextRunAt, nextJobFound: false, nextRunAgainAt: await this.nextRunAt() };
  }

  private async nextRunAt(): Promise<number | null> {
    const scheduler = await this.deps.queue.getJobScheduler(IDLE_TICK_SCHEDULER_ID);
    return typeof scheduler?.next === 'number' ? scheduler.next : null;
  }
}
