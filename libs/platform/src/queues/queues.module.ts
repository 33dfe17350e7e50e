import { Module, type DynamicModule } from '@nestjs/common';
import { BullModule } from '@nestjs/bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import { CONFIG } from '../app/app-tokens';
import { bullConnection } from '../redis/redis-connection';
import { queueTelemetry } from '../tracing/tracing';
import { IDLE_TICK_QUEUE } from './idle-tick-job';
import { jobRetention } from './job-retention';
import { WAKE_QUEUE } from './wake-job';
import { BILLING_RECONCILE_QUEUE } from './billing-reconcile-job';

export type QueueName = typeof WAKE_QUEUE | typeof IDLE_TICK_QUEUE | typeof BILLING_RECONCILE_QUEUE;

/**
 * BullMQ the NestJS way: one root configuration (the connection, and QUEUE_PREFIX so stacks sharing a
 * Redis never collide) and this app's queues for `@InjectQueue` and `@Processor`. Needs PlatformCoreModule.
 */
@Module({})
export class QueuesModule {
  static forRoot(...queues: QueueName[]): DynamicModule {
    return {
      module: QueuesModule,
      imports: [
        BullModule.forRootAsync({
          useFactory: (config: PodwardenConfig) => ({
            // BullMQ opens (and closes) its own connections from these options (a client on a cluster).
            connection: bullConnection(config.redis),
            prefix: config.redis.prefix,
            // Carries the trace from a job's producer to its worker when tracing is on.
            telemetry: queueTelemetry(),
            defaultJobOptions: { attempts: 1, ...jobRetention(config.tuning) },
          }),
          inject: [CONFIG],
        }),
        BullModule.registerQueue(...queues.map((name) => ({ name }))),
      ],
      exports: [BullModule],
    };
  }
}
