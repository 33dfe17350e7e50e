import { Controller, Get, Header, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Registry } from 'prom-client';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { HealthController } from './health.controller';
import { RedisHealthIndicator } from './redis-health.indicator';
import { WorkerState } from './worker-state';

/**
 * A worker's HEALTH_PORT: live says the process answers; ready says it does
 * its job (Redis answers, its BullMQ worker takes jobs, and for the idle
 * monitor ticks keep completing), so an orchestrator restarts a replica
 * that cannot.
 */
@Controller('health')
export class WorkerHealthController extends HealthController {
  constructor(
    health: HealthCheckService,
    redis: RedisHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Inject(WorkerState) private readonly state: WorkerState,
  ) {
    super(health, redis);
  }

  /** live is the gateway's; ready adds the worker and, for the idle monitor, its ticks. */
  @Get('ready')
  @HealthCheck()
  override ready() {
    return this.health.check([
      () => this.redis.check(),
      () => this.workerCheck(),
      ...(this.state.ticks ? [() => this.ticksCheck()] : []),
    ]);
  }

  private workerCheck() {
    const indicator = this.indicators.check('worker');
    return this.state.workerTakingJobs()
      ? indicator.up()
      : indicator.down({ message: 'the BullMQ worker is not taking jobs' });
  }

  private async ticksCheck() {
    const indicator = this.indicators.check('ticks');
    const freshness = await this.state.tickFreshness();
    if (freshness === null || freshness.fresh) return indicator.up({ ageMs: freshness?.ageMs ?? null });
    return indicator.down({
      message: `no idle tick completed for ${Math.round(freshness.ageMs / 1000)} s`,
      ageMs: freshness.ageMs,
      staleAfterMs: freshness.staleAfterMs,
    });
  }
}

@Controller('metrics')
export class WorkerMetricsController {
  constructor(private readonly metrics: PodwardenMetrics) {}

  @Get()
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
