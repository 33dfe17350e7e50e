import type { Job, Queue } from 'bullmq';
import type { PodConfig, TuningConfig } from '@podwarden/policies';
import { WAKE_JOB, wakeDeduplicationId, type WakeJobData, type WakeJobResult } from '../queues/wake-job';
import { withinTimeout } from '../util/within-timeout';

/**
 * The one way our producers (the gateway's start route, the inference proxy)
 * ask for a wake. Deduplication on the volume is the singleton gate for them:
 * while a wake for the volume is waiting or active, the add returns that job's
 * id, so any number of callers on any number of replicas share one job and one
 * RunPod write. The returned Job carries the caller's data, not the stored
 * job's, so it is re-read. Throws when Redis does not answer in time.
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
  const stored = await withinTimeout(
    queue.getJob(String(added.id)),
    tuning.redisReadTimeoutMs,
    'wake job read',
  );
  return { job: stored ?? added, storedBy: stored?.data.requestedBy ?? null };
}
