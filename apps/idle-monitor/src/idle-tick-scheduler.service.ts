import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import {
  monitorSetup,
  monitorSetupWarning,
  schedulerCheckMs,
  type PodwardenConfig,
} from '@podwarden/policies';
import { CONFIG, IDLE_TICK_QUEUE, LOGGER, type AppLogger } from '@podwarden/platform';
import { SchedulerWatch } from './scheduler/scheduler-watch';
import { TickScheduler } from './scheduler/tick-scheduler';

/**
 * Every replica upserts the same job scheduler at start-up (idempotent, so
 * one tick per CHECK_SECONDS however many replicas run), then watches that
 * it stays in Redis until shutdown, and says at start-up what it cannot watch.
 */
@Injectable()
export class IdleTickSchedulerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private watch: SchedulerWatch | null = null;

  constructor(
    @InjectQueue(IDLE_TICK_QUEUE) private readonly queue: Queue,
    private readonly scheduler: TickScheduler,
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { config } = this;
    await this.scheduler.upsert();
    this.logger.info(
      { checkSeconds: config.checkSeconds, pods: config.pods.map((p) => p.name), dryRun: config.idleDryRun },
      `idle monitor ticking every ${config.checkSeconds}s`,
    );
    const unconfigured = monitorSetupWarning(monitorSetup(config));
    if (unconfigured !== null) this.logger.warn(unconfigured);
    if (config.idleDryRun)
      this.logger.warn('IDLE_DRY_RUN=true: the monitor logs "would stop" and stops nothing');
    this.watch = new SchedulerWatch(
      this.scheduler,
      await this.queue.backend.client,
      schedulerCheckMs(config.checkSeconds),
    );
    this.watch.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.watch?.stop();
  }
}
