import { OnWorkerEvent, Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { IDLE_TICK_QUEUE, TrackedWorkerHost, WorkerHostKit, errorMessage } from '@podwarden/platform';
import { IdleTickService, type PodTickOutcome } from './idle/idle-tick.service';
import { scheduledAtOf } from './idle/scheduled-at';

/** What a tick job returns (shown in Bull Board): each pod's phase/streak, its stop, or why it was skipped. */
export interface IdleTickJobResult {
  readonly pods: Record<string, string>;
}

/**
 * Consumes the idle ticks (one job, one worker of any replica); worker options: IdleMonitorModule.forRoot.
 * A re-run is recognised by its id, so at shutdown the running tick gets the grace period and is then
 * handed back (its lock lapses) rather than waited for.
 */
@Processor(IDLE_TICK_QUEUE)
export class IdleTickProcessor extends TrackedWorkerHost {
  constructor(
    private readonly tick: IdleTickService,
    kit: WorkerHostKit,
  ) {
    super(kit, {
      what: 'idle tick',
      handBackMessage: 'idle tick still running at shutdown; handing it back',
    });
  }

  process(job: Job, _token?: string, signal?: AbortSignal): Promise<IdleTickJobResult> {
    return this.track(this.measured(job, signal));
  }

  private async measured(job: Job, signal: AbortSignal | undefined): Promise<IdleTickJobResult> {
    const startedAt = Date.now();
    try {
      const outcomes = await this.tick.run(String(job.id), scheduledAtOf(job), signal);
      this.kit.metrics.jobFinished(IDLE_TICK_QUEUE, 'completed', Date.now() - startedAt);
      await this.kit.state.tickCompleted();
      return { pods: Object.fromEntries([...outcomes].map(([name, outcome]) => [name, summaryOf(outcome)])) };
    } catch (error) {
      this.kit.metrics.jobFinished(IDLE_TICK_QUEUE, 'failed', Date.now() - startedAt);
      throw error;
    }
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.kit.logger.warn({ jobId: job?.id, err: error.message }, 'idle tick failed');
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.kit.logger.error({ err: errorMessage(error) }, 'idle tick worker error');
  }
}

function summaryOf(outcome: PodTickOutcome): string {
  if (outcome.kind === 'skipped') return `skipped:${outcome.why}`;
  const { phase, idleStreak } = outcome.record.state;
  return `${phase}/${idleStreak}${outcome.stop ? `/stop:${outcome.stop}` : ''}`;
}
