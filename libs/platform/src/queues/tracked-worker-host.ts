import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG, LOGGER } from '../app/app-tokens';
import { WorkerState } from '../health/worker-state';
import type { AppLogger } from '../logging/logger';
import { WorkerMetrics } from '../metrics/worker-metrics';
import { closeWorkerWithinGrace, type WorkerShutdown } from './close-worker';
import { RunningJobs } from './running-jobs';

/** What every processor uses besides its own work: config, the logger, readiness and job metrics. */
@Injectable()
export class WorkerHostKit {
  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(LOGGER) readonly logger: AppLogger,
    readonly state: WorkerState,
    readonly metrics: WorkerMetrics,
  ) {}
}

/** How a processor's worker is named at shutdown, and whether it is the one readiness watches. */
export interface TrackedWorkerOptions extends Pick<WorkerShutdown, 'what' | 'handBackMessage'> {
  /** False for a side worker (the billing reconcile): readiness watches the app's main worker only. */
  readonly feedsReadiness?: boolean;
}

/**
 * What every processor shares: its jobs are tracked, and shutdown gives them SHUTDOWN_GRACE_MS before
 * handing any still running back, forced at once without Redis (a gentle BullMQ close then never ends).
 */
export abstract class TrackedWorkerHost
  extends WorkerHost
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly running = new RunningJobs();

  protected constructor(
    protected readonly kit: WorkerHostKit,
    private readonly options: TrackedWorkerOptions,
  ) {
    super();
  }

  /** Tracks a job's work until it settles, so shutdown can wait for it; returns it unchanged. */
  protected track<T>(work: Promise<T>): Promise<T> {
    return this.running.track(work);
  }

  onApplicationBootstrap(): void {
    if (this.options.feedsReadiness !== false) this.kit.state.attach(this.worker);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await closeWorkerWithinGrace({
      worker: this.worker,
      running: this.running,
      graceMs: this.kit.config.tuning.shutdownGraceMs,
      probeMs: this.kit.config.tuning.redisReadTimeoutMs,
      logger: this.kit.logger,
      what: this.options.what,
      handBackMessage: this.options.handBackMessage,
    });
  }
}
