import type { Job } from 'bullmq';

/** Scheduler job ids end in the tick's scheduled time (repeat:<scheduler>:<millis>); else the creation time. */
export function scheduledAtOf(job: Pick<Job, 'id' | 'timestamp'>): number {
  const match = /:(\d{10,})$/.exec(String(job.id ?? ''));
  return match ? Number(match[1]) : job.timestamp;
}
