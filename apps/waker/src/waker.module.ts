import { Module, type DynamicModule } from '@nestjs/common';
import {
  BudgetModule,
  EventsModule,
  PlatformCoreModule,
  QueuesModule,
  RecordsModule,
  StatusModule,
  WAKE_QUEUE,
  WakeModule,
  WorkerHealthModule,
  configureProcessor,
  type AppStart,
} from '@podwarden/platform';
import { WakeProcessor } from './wake.processor';
import { WakeJobRunner } from './wake/wake-job-runner';
import { wakeTimingProvider } from './wake-timing.provider';
import { wakeWorkerOptions } from './wake-worker-options';

/** The waker: the `wake` queue's processor on the platform's wake stores, plus health on HEALTH_PORT. */
@Module({})
export class WakerModule {
  static forRoot(start: AppStart): DynamicModule {
    // Worker options must be on the class before BullMQ builds the worker from it.
    configureProcessor(WakeProcessor, WAKE_QUEUE, wakeWorkerOptions(start.config));
    return {
      module: WakerModule,
      imports: [
        PlatformCoreModule.forRoot(start),
        // The wake's gate and progress, its records, the budget it reserves, the events it publishes.
        WakeModule,
        RecordsModule,
        StatusModule,
        BudgetModule,
        EventsModule,
        QueuesModule.forRoot(WAKE_QUEUE),
        WorkerHealthModule.forRoot({ app: 'waker', ticks: false }),
      ],
      providers: [wakeTimingProvider, WakeJobRunner, WakeProcessor],
    };
  }
}
