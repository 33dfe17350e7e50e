import { Job, Queue, type ConnectionOptions } from 'bullmq';

/** The contract's queue and job name (docs/contract.md, "Queues"). */
export const WAKE_QUEUE = 'wake';
export const WAKE_JOB = 'wake';
/** The default QUEUE_PREFIX; on a Redis Cluster the apps use it hash-tagged: `{podwarden}`. */
export const DEFAULT_PREFIX = 'podwarden';
export const POD_NAME_MAX_LENGTH = 100;
export const REQUESTED_BY_MAX_LENGTH = 200;
/** The apps' defaults (JOB_KEEP_COMPLETED_SECONDS, JOB_KEEP_FAILED_SECONDS), so these jobs age out like theirs. */
const KEEP_COMPLETED_SECONDS = 3600;
const KEEP_FAILED_SECONDS = 86400;

/** The pod to wake: its configured name and its network volume (RUNPOD_VOLUME_ID, or volumeId in PODS_CONFIG). */
export interface PodRef {
  readonly name: string;
  readonly volumeId: string;
}

export interface ProducerConnection {
  /** The caller's ioredis instance (or BullMQ connection options); it is never closed here. */
  readonly connection: ConnectionOptions;
  /** podwarden's QUEUE_PREFIX. */
  readonly prefix?: string;
}

export interface WakePodOptions extends ProducerConnection {
  readonly pod: PodRef;
  /** Who asked, recorded in the wake history. */
  readonly requestedBy?: string;
}

export interface WakeJobData {
  readonly podName: string;
  readonly requestedBy?: string;
}

/** What a finished wake job returned (the same body POST …/start answers with). */
export interface WakeResult {
  readonly name: string;
  readonly outcome: 'AlreadyRunning' | 'Started' | 'Created' | 'Waiting' | 'Failed';
  readonly attemptId: string;
  readonly podId: string | null;
  readonly proxyUrl: string | null;
  readonly message?: string;
  readonly [field: string]: unknown;
}

export type WakeEnding =
  | { readonly state: 'completed'; readonly result: WakeResult }
  | { readonly state: 'failed'; readonly reason: string }
  /** Still queued or running when the wait ran out: ask again, or follow GET /api/pods/{name}. */
  | { readonly state: 'pending' }
  /** No such job: never enqueued under this prefix, or aged out of the queue. */
  | { readonly state: 'missing' };

export class InvalidWakeRequest extends Error {
  override readonly name = 'InvalidWakeRequest';
}

/** The job payload, validated as the waker validates it; throws InvalidWakeRequest. */
export function wakeJobData(pod: PodRef, requestedBy?: string): WakeJobData {
  const podName = typeof pod?.name === 'string' ? pod.name.trim() : pod?.name;
  if (typeof podName !== 'string' || podName === '')
    throw new InvalidWakeRequest('podName must be a non-empty string');
  if (podName.length > POD_NAME_MAX_LENGTH)
    throw new InvalidWakeRequest(`podName is longer than ${POD_NAME_MAX_LENGTH} characters`);
  if (typeof pod.volumeId !== 'string' || pod.volumeId.trim() === '')
    throw new InvalidWakeRequest('pod.volumeId must be the pod volume id (its dedupe key)');
  if (requestedBy === undefined) return { podName };
  if (typeof requestedBy !== 'string')
    throw new InvalidWakeRequest('requestedBy must be a string when present');
  if (requestedBy.length > REQUESTED_BY_MAX_LENGTH)
    throw new InvalidWakeRequest(`requestedBy is longer than ${REQUESTED_BY_MAX_LENGTH} characters`);
  return { podName, requestedBy };
}

/** The contract's dedupe id: while a wake for the volume is queued or running, every add joins it. */
export function wakeDeduplicationId(volumeId: string): string {
  return `wake:${volumeId.trim()}`;
}

function openQueue(options: ProducerConnection): Queue {
  return new Queue(WAKE_QUEUE, { connection: options.connection, prefix: options.prefix ?? DEFAULT_PREFIX });
}

/**
 * Enqueues a wake for the pod and returns the job id: the id of the wake already
 * queued or running for its volume when there is one, so callers share one wake.
 */
export async function wakePod(options: WakePodOptions): Promise<string> {
  const data = wakeJobData(options.pod, options.requestedBy);
  const queue = openQueue(options);
  try {
    const job = await queue.add(WAKE_JOB, data, {
      deduplication: { id: wakeDeduplicationId(options.pod.volumeId) },
      attempts: 1,
      removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
      removeOnFail: { age: KEEP_FAILED_SECONDS },
    });
    if (job.id === undefined) throw new Error('the queue returned no job id');
    return job.id;
  } finally {
    await queue.close();
  }
}

export interface WaitOptions extends ProducerConnection {
  /** How long to follow the job before answering `pending`. Default 120 s. */
  readonly timeoutMs?: number;
  /** Delay between reads of the job's state. Default 250 ms. */
  readonly pollMs?: number;
}

/** Follows a wake job to its outcome by reading its state (no extra blocking connection). */
export async function waitForWake(jobId: string, options: WaitOptions): Promise<WakeEnding> {
  const queue = openQueue(options);
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  try {
    for (;;) {
      const job = await Job.fromId<WakeJobData, WakeResult>(queue, jobId);
      if (!job) return { state: 'missing' };
      const state = await job.getState();
      if (state === 'completed') return { state: 'completed', result: job.returnvalue };
      if (state === 'failed') return { state: 'failed', reason: job.failedReason || 'the wake job failed' };
      if (Date.now() >= deadline) return { state: 'pending' };
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
    }
  } finally {
    await queue.close();
  }
}
