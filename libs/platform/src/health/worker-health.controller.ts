import { Controller, Get, Header, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { Registry } from 'prom-client';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { HealthController } from './health.controller';
import { RedisHealthIndicator } from './redis-health.indicator';
import { WorkerState, type ReadinessCheck } from './worker-state';

/**
 * A worker's HEALTH_PORT: live says the process answers; ready says it does its job (Redis, its BullMQ
 * worker, and for the idle monitor ticks completing, its scheduler present, a configuration), so an
 * orchestrator sees a replica that does not.
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

  /** live is the gateway's; ready adds the worker, for the idle monitor its ticks, and the app's own checks. */
  @Get('ready')
  @HealthCheck()
  override ready() {
    return this.health.check([
      () => this.redis.check(),
      () => this.workerCheck(),
      ...(this.state.ticks ? [() => this.ticksCheck()] : []),
      ...[...this.state.checks()].map(([name, check]) => this.appCheck(name, check)),
    ]);
  }

  private appCheck(name: string, check: ReadinessCheck) {
    return async () => {
      const indicator = this.indicators.check(name);
      const item = await check();
      return item.up ? indicator.up(item.details) : indicator.down(item.details);
    };
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
