import { Inject, Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { PodConfig, PodwardenConfig, WakeFailureKind, WakeOutcome } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  PodEventPublisher,
  WAKE_QUEUE,
  WakeGate,
  enqueueWake,
  type AppLogger,
  type WakeJobData,
  type WakeJobResult,
  boundedRead,
} from '@podwarden/platform';

/** Who the wake history names as the requester of a proxy's wakes. */
export const PROXY_REQUESTER = 'inference-proxy';

export interface WakeEnding {
  readonly outcome: WakeOutcome;
  readonly failureKind: WakeFailureKind | null;
  readonly message: string;
}

interface Tracked {
  readonly attemptId: string;
  /** When this replica saw the wake end well; null while it runs (or ended badly). */
  succeededAt: number | null;
}

/**
 * The proxy's wakes go through `enqueueWake` (the start route's queue, dedup and gate), never a second
 * path to RunPod. In a replica, concurrent cold requests share one enqueue, and a wake that ended well is
 * reused until the monitor sees the pod up (a new job would only re-read the volume).
 */
@Injectable()
export class ProxyWakes {
  private readonly tracked = new Map<string, Tracked>();
  private readonly enqueues = new Map<string, Promise<string>>();

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @InjectQueue(WAKE_QUEUE) private readonly queue: Queue<WakeJobData, WakeJobResult>,
    private readonly gate: WakeGate,
    private readonly events: PodEventPublisher,
  ) {}

  /** The attempt id the pod's cold requests wait on; throws when the queue is unreachable. */
  async ensure(pod: PodConfig, now: number = Date.now()): Promise<string> {
    const key = pod.name.toLowerCase();
    const known = this.tracked.get(key);
    // A wake this replica has not seen end may have ended unseen (no request held for it): ask.
    if (known !== undefined && known.succeededAt === null) await this.ending(known.attemptId);
    const current = this.tracked.get(key);
    if (current !== undefined && this.stillUseful(current, now)) return current.attemptId;
    const running = this.enqueues.get(key);
    if (running !== undefined) return running;
    const enqueue = this.enqueue(pod).finally(() => this.enqueues.delete(key));
    this.enqueues.set(key, enqueue);
    return enqueue;
  }

  /** The pod turned out not to be serving: a wake that ended well no longer stands for it. */
  forget(pod: PodConfig): void {
    this.tracked.delete(pod.name.toLowerCase());
  }

  /** How the attempt ended; null while it runs. A published result first, else the job's own state. */
  async ending(attemptId: string): Promise<WakeEnding | null> {
    const result = await boundedRead(this.config, this.gate.readResult(attemptId), 'wake result read');
    const ending = result ?? (await this.jobEnding(attemptId));
    if (ending !== null) this.note(attemptId, ending);
    return ending;
  }

  private async jobEnding(attemptId: string): Promise<WakeEnding | null> {
    const job = await boundedRead(this.config, this.queue.getJob(attemptId), 'wake job read');
    if (!job)
      return { outcome: 'Failed', failureKind: null, message: 'the wake job is no longer in the queue' };
    const state = await boundedRead(this.config, job.getState(), 'wake job state');
    if (state === 'completed' && job.returnvalue) return job.returnvalue;
    if (state === 'failed') {
      return { outcome: 'Failed', failureKind: null, message: job.failedReason || 'the wake job failed' };
    }
    return null;
  }

  private note(attemptId: string, ending: WakeEnding): void {
    for (const tracked of this.tracked.values()) {
      if (tracked.attemptId === attemptId && ending.outcome !== 'Failed' && tracked.succeededAt === null) {
        tracked.succeededAt = Date.now();
      }
    }
    if (ending.outcome === 'Failed') {
      for (const [key, tracked] of this.tracked)
        if (tracked.attemptId === attemptId) this.tracked.delete(key);
    }
  }

  /** A running wake, or one that ended well within two idle ticks (the pod is coming up). */
  private stillUseful(tracked: Tracked, now: number): boolean {
    if (tracked.succeededAt === null) return true;
    return now - tracked.succeededAt < 2 * this.config.checkSeconds * 1000 + 5_000;
  }

  private async enqueue(pod: PodConfig): Promise<string> {
    const { job, storedBy } = await enqueueWake(this.queue, pod, PROXY_REQUESTER, this.config.tuning);
    const attemptId = String(job.id);
    this.tracked.set(pod.name.toLowerCase(), { attemptId, succeededAt: null });
    this.logger.info(
      { pod: pod.name, attemptId, requestedBy: PROXY_REQUESTER, storedBy },
      `wake requested for ${pod.name} by a cold inference request (job ${attemptId})`,
    );
    void this.events.publish(pod.name, 'proxy', { action: 'wake-requested', attemptId });
    return attemptId;
  }
}
