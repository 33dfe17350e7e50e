import type { Type } from '@nestjs/common';
import { Processor, type WorkerHost } from '@nestjs/bullmq';

// Processor's own parameter type (not exported by @nestjs/bullmq).
type NestWorkerOptions = NonNullable<Parameters<typeof Processor>[1]>;
import type { QueueName } from './queues.module';

/**
 * Worker options (concurrency, lock duration, stalled interval) come from the
 * loaded config, but `@Processor(queue, options)` is evaluated when the class
 * is imported, before any config exists. The app module therefore applies the
 * same decorator with the real options while it is built (`forRoot(start)`),
 * so BullMQ constructs the worker with them: a lock renewal period derived at
 * construction cannot be changed afterwards.
 */
export function configureProcessor(
  processor: Type<WorkerHost>,
  queue: QueueName,
  options: NestWorkerOptions,
): void {
  Processor(queue, options)(processor);
}
