import { Inject, Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Job, Queue } from 'bullmq';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  WAKE_QUEUE,
  WakeGate,
  WakeProgressStore,
  enqueueWake,
  type AppLogger,
  type WakeJobData,
  type WakeJobResult,
  errorMessage,
  orWarn,
  boundedRead,
} from '@podwarden/platform';
import { ProblemException, problemBody } from '../http/problem';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import {
  answerFromJobFailure,
  answerFromResult,
  answerWhileInFlight,
  type StartAnswer,
} from './start-answer';
import { WakeQueueEvents } from './wake-queue-events';

/** A shed start tries again after this: the enqueue failed on a Redis too slow or away for a moment. */
export const QUEUE_RETRY_AFTER_SECONDS = 2;

type JobEnding =
  | { readonly kind: 'completed'; readonly result: WakeJobResult }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'timeout' };

/**
 * POST …/start: queue a wake and wait a bounded time. The wake runs on a waker, so a caller that gives up
 * leaves it running, and a retry joins the same job (deduplication): same attemptId, no second RunPod write.
 */
@Injectable()
export class StartWakeService {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @InjectQueue(WAKE_QUEUE) private readonly queue: Queue<WakeJobData, WakeJobResult>,
    private readonly queueEvents: WakeQueueEvents,
    private readonly gate: WakeGate,
    private readonly progress: WakeProgressStore,
    private readonly metrics: GatewayMetrics,
  ) {}

  async start(pod: PodConfig, requester: string): Promise<StartAnswer> {
    const job = await this.enqueue(pod, requester);
    const attemptId = String(job.id);
    const ending = await this.waitFor(job, this.config.wake.requestWaitSeconds * 1000);
    const answer = await this.answer(pod, attemptId, ending);
    this.metrics.wakeStarts.inc({ outcome: answer.kind === 'problem' ? 'Failed' : answer.body.outcome });
    return answer;
  }

  /** The shared producer path (enqueueWake): the same dedup and gate as every other producer of ours. */
  private async enqueue(pod: PodConfig, requester: string): Promise<Job<WakeJobData, WakeJobResult>> {
    try {
      const { job, storedBy } = await enqueueWake(this.queue, pod, requester, this.config.tuning);
      this.logger.info(
        { pod: pod.name, attemptId: job.id, requestedBy: requester, storedBy },
        `wake requested for ${pod.name} (job ${job.id})`,
      );
      return job;
    } catch (error) {
      this.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'wake could not be queued');
      throw new ProblemException(
        problemBody(
          503,
          'queue-unavailable',
          'Wake queue unavailable',
          'Redis did not accept the wake request; retry shortly',
        ),
        QUEUE_RETRY_AFTER_SECONDS,
      );
    }
  }

  /**
   * The wait rejects when it ran out or the finish could not be read; the
   * job's own state then says what happened, without parsing error messages.
   */
  private async waitFor(job: Job<WakeJobData, WakeJobResult>, waitMs: number): Promise<JobEnding> {
    try {
      const finish = await this.queueEvents.finishes.wait(String(job.id), Math.max(1, waitMs));
      return finish.kind === 'completed'
        ? completedEnding(finish.value)
        : { kind: 'failed', reason: finish.reason };
    } catch {
      return this.settledEnding(String(job.id));
    }
  }

  private async settledEnding(jobId: string): Promise<JobEnding> {
    try {
      const job = await boundedRead(this.config, this.queue.getJob(jobId), 'wake job read');
      if (!job) return { kind: 'failed', reason: 'the wake job is no longer in the queue' };
      const state = await boundedRead(this.config, job.getState(), 'wake job state');
      if (state === 'completed') return completedEnding(job.returnvalue);
      if (state === 'failed') return { kind: 'failed', reason: job.failedReason || 'the wake job failed' };
      return { kind: 'timeout' };
    } catch (error) {
      // Unknown is not failure: the wake may well be running; the caller polls GET.
      this.logger.warn({ jobId, err: errorMessage(error) }, 'wake job state unreadable; answering Waiting');
      return { kind: 'timeout' };
    }
  }

  private async answer(pod: PodConfig, attemptId: string, ending: JobEnding): Promise<StartAnswer> {
    switch (ending.kind) {
      case 'completed':
        return answerFromResult(pod.name, ending.result);
      case 'failed': {
        // A waker that published a result before the job failed said more than BullMQ's failedReason.
        const published = await this.readQuietly(() => this.gate.readResult(attemptId), 'wake result');
        return published
          ? answerFromResult(pod.name, published)
          : answerFromJobFailure(pod.name, attemptId, ending.reason);
      }
      case 'timeout': {
        // The finish event may have been missed: the published result is the last word before saying "Waiting".
        const published = await this.readQuietly(() => this.gate.readResult(attemptId), 'wake result');
        if (published) return answerFromResult(pod.name, published);
        const progress = await this.readQuietly(() => this.progress.get(pod.name), 'wake progress');
        return answerWhileInFlight(pod.name, progress?.attemptId ?? attemptId, progress?.message ?? null);
      }
    }
  }

  private readQuietly<T>(read: () => Promise<T | null>, what: string): Promise<T | null> {
    return orWarn(() => boundedRead(this.config, read(), what), {
      logger: this.logger,
      fields: {},
      message: `${what} unreadable`,
      fallback: () => null,
    });
  }
}

function completedEnding(result: unknown): JobEnding {
  return isWakeJobResult(result)
    ? { kind: 'completed', result }
    : { kind: 'failed', reason: 'the wake job finished without a result' };
}

function isWakeJobResult(value: unknown): value is WakeJobResult {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.outcome === 'string' &&
    typeof record.attemptId === 'string' &&
    typeof record.message === 'string'
  );
}
