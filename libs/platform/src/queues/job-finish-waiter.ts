import type { Queue, QueueEvents } from 'bullmq';

type Settle = (ending: JobFinish) => void;

/** How a job ended, as the waiter saw it: its return value or its failure reason. */
export type JobFinish =
  | { readonly kind: 'completed'; readonly value: unknown }
  | { readonly kind: 'failed'; readonly reason: string };

/**
 * Waits for jobs of one queue to finish. `job.waitUntilFinished` adds a queue listener per call (past ten,
 * Node warns of a leak); here two listeners are added once and each wait is a map entry.
 */
export class JobFinishWaiter {
  private readonly waiting = new Map<string, Set<Settle>>();

  constructor(
    private readonly queue: Queue,
    private readonly events: QueueEvents,
  ) {
    events.on('completed', ({ jobId, returnvalue }) =>
      this.settle(jobId, { kind: 'completed', value: returnvalue }),
    );
    events.on('failed', ({ jobId, failedReason }) =>
      this.settle(jobId, { kind: 'failed', reason: failedReason }),
    );
  }

  /** The job's ending, or a rejection when none arrives within `ttlMs`. */
  async wait(jobId: string, ttlMs: number): Promise<JobFinish> {
    return new Promise<JobFinish>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forget(jobId, settle);
        reject(new Error(`job ${jobId} did not finish within ${ttlMs} ms`));
      }, ttlMs);
      const settle: Settle = (ending) => {
        clearTimeout(timer);
        this.forget(jobId, settle);
        resolve(ending);
      };
      const settles = this.waiting.get(jobId) ?? new Set<Settle>();
      settles.add(settle);
      this.waiting.set(jobId, settles);
      // The job may have finished before the events stream was read: its stored state says so.
      this.storedEnding(jobId).then(
        (ending) => ending && settle(ending),
        (error: unknown) => {
          clearTimeout(timer);
          this.forget(jobId, settle);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private async storedEnding(jobId: string): Promise<JobFinish | null> {
    await this.events.waitUntilReady();
    // The state first: a job read before it finished would carry no result yet.
    const state = await this.queue.getJobState(jobId);
    if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return null;
    const job = state === 'unknown' ? undefined : await this.queue.getJob(jobId);
    if (!job) return { kind: 'failed', reason: `job ${jobId} is no longer in the queue` };
    return state === 'completed'
      ? { kind: 'completed', value: job.returnvalue }
      : { kind: 'failed', reason: job.failedReason };
  }

  private settle(jobId: string, ending: JobFinish): void {
    for (const settle of [...(this.waiting.get(jobId) ?? [])]) settle(ending);
  }

  private forget(jobId: string, settle: Settle): void {
    const settles = this.waiting.get(jobId);
    settles?.delete(settle);
    if (settles?.size === 0) this.waiting.delete(jobId);
  }
}
