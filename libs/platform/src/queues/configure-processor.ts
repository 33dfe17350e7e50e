import type { Type } from '@nestjs/common';
import { Processor, type WorkerHost } from '@nestjs/bullmq';

// Processor's own parameter type (not exported by @nestjs/bullmq).
type NestWorkerOptions = NonNullable<Parameters<typeof Processor>[1]>;
import type { QueueName } from './queues.module';

/**
 * `@Processor(queue, options)` runs at import, before any config: the app module applies it again with the
 * configured options in `forRoot(start)`, so BullMQ builds the worker with them (the lock renewal period
 * is fixed at construction).
 */
export function configureProcessor(
  processor: Type<WorkerHost>,
  queue: QueueName,
  options: NestWorkerOptions,
): void {
  Processor(queue, options)(processor);
}
