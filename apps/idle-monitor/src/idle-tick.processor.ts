import { Inject, type BeforeApplicationShutdown } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, IDLE_TICK_QUEUE, LOGGER, errorMessage, type AppLogger } from '@podwarden/platform';
import { IdleTickService, type PodTickOutcome } from './idle/idle-tick.service';
import { scheduledAtOf } from './idle/scheduled-at';

/** What a tick job returns (shown in Bull Board): each pod's phase/streak, its stop, or why it was skipped. */
export interface IdleTickJobResult {
  readonly pods: Record<string, string>;
}

/**
 * Consumes the idle ticks: each tick is one job taken by one worker of any
 * replica. Its worker options (concurrency 1, a lock longer than two ticks,
 * one stall re-delivery) are applied from config in `IdleMonitorModule.forRoot`.
 * The job's AbortSignal reaches every RunPod read of the tick.
 */
@Processor(IDLE_TICK_QUEUE)
export class IdleTickProcessor extends WorkerHost implements BeforeApplicationShutdown {
  constructor(
    private readonly tick: IdleTickService,
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {
    super();
  }

  async process(job: Job, _token?: string, signal?: AbortSignal): Promise<IdleTickJobResult> {
    const outcomes = await this.tick.run(String(job.id), scheduledAtOf(job), signal);
    return { pods: Object.fromEntries([...outcomes].map(([name, outcome]) => [name, summaryOf(outcome)])) };
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.warn({ jobId: job?.id, err: error.message }, 'idle tick failed');
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.error({ err: errorMessage(error) }, 'idle tick worker error');
  }

  /**
   * A tick is safe to run again (a re-run is recognised by its id), so on
   * shutdown the running one gets the grace period and is then handed back:
   * the worker closes without waiting further and its lock lapses.
   */
  async beforeApplicationShutdown(): Promise<void> {
    const graceMs = this.config.tuning.shutdownGraceMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), graceMs);
    });
    try {
      const closed = await Promise.race([this.worker.close().then(() => 'closed' as const), expired]);
      if (closed === 'expired') {
        this.logger.warn({ graceMs }, 'idle tick still running at shutdown; handing it back');
        await this.worker.close(true);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

function summaryOf(outcome: PodTickOutcome): string {
  if (outcome.kind === 'skipped') return `skipped:${outcome.why}`;
  const { phase, idleStreak } = outcome.record.state;
  return `${phase}/${idleStreak}${outcome.stop ? `/stop:${outcome.stop}` : ''}`;
}
