import type { Job, Queue } from 'bullmq';
import type { PodConfig, TuningConfig } from '@podwarden/policies';
import { WAKE_JOB, wakeDeduplicationId, type WakeJobData, type WakeJobResult } from '../queues/wake-job';
import { boundedRead } from '../redis/bounded-read';
import { withinTimeout } from '../util/within-timeout';

/**
 * The one way our producers ask for a wake: deduplication on the volume folds every caller into one job
 * while one waits or runs (the singleton gate). The Job an add returns carries the caller's data, so the
 * stored job is re-read. Throws when Redis does not answer in time.
 */
export async function enqueueWake(
  queue: Queue<WakeJobData, WakeJobResult>,
  pod: PodConfig,
  requestedBy: string,
  tuning: Pick<TuningConfig, 'redisWriteTimeoutMs' | 'redisReadTimeoutMs'>,
): Promise<{ job: Job<WakeJobData, WakeJobResult>; storedBy: string | null }> {
  const added = await withinTimeout(
    // Retention and attempts are the queue's defaults (QueuesModule).
    queue.add(
      WAKE_JOB,
      { podName: pod.name, requestedBy },
      { deduplication: { id: wakeDeduplicationId(pod.volumeId) } },
    ),
    tuning.redisWriteTimeoutMs,
    'wake enqueue',
  );
  const stored = await boundedRead({ tuning }, queue.getJob(String(added.id)), 'wake job read');
  return { job: stored ?? added, storedBy: stored?.data.requestedBy ?? null };
}
