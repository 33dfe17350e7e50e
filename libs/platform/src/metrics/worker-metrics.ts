import { Counter, Gauge, Histogram, collectDefaultMetrics } from 'prom-client';
import type { PodwardenMetrics } from './podwarden-metrics';

/** Seconds: a wake runs for minutes, a tick for well under one. */
const DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/**
 * A worker's own series, in the shared registry: jobs by outcome, how long
 * they took, and (idle monitor) the age of the newest completed tick.
 */
export class WorkerMetrics {
  readonly jobs: Counter<'queue' | 'outcome'>;
  readonly jobDuration: Histogram<'queue'>;
  readonly lastTickAge: Gauge;

  constructor(shared: PodwardenMetrics, app: string, tickAgeSeconds: () => Promise<number | null>) {
    const registers = [shared.registry];
    this.jobs = new Counter({
      name: 'podwarden_jobs_total',
      help: 'Jobs this worker finished, by queue and outcome (a wake: its outcome; "failed" when the job failed; "requeued" when a run that threw was put back to run again)',
      labelNames: ['queue', 'outcome'] as const,
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'podwarden_job_duration_seconds',
      help: 'How long each job ran (for the idle-tick queue: the tick duration), by queue',
      labelNames: ['queue'] as const,
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.lastTickAge = new Gauge({
      name: 'podwarden_idle_last_tick_age_seconds',
      help: 'Seconds since the newest idle tick completed on any replica (since start-up before the first one); -1 on a worker without ticks',
      registers,
      async collect() {
        this.set((await tickAgeSeconds()) ?? -1);
      },
    });
    collectDefaultMetrics({ register: shared.registry, prefix: `podwarden_${app.replace(/-/g, '_')}_` });
  }

  jobFinished(queue: string, outcome: string, durationMs: number): void {
    this.jobs.inc({ queue, outcome });
    this.jobDuration.observe({ queue }, durationMs / 1000);
  }
}
