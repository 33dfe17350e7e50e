import type { Provider } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  BudgetLedger,
  CONFIG,
  LOGGER,
  PREWAKE_REQUESTER,
  PodEventPublisher,
  PodwardenMetrics,
  RhythmStore,
  UsageStore,
  WAKE_QUEUE,
  WakeHistory,
  enqueueWake,
  type AppLogger,
  type WakeJobData,
  type WakeJobResult,
} from '@podwarden/platform';
import { RhythmMetrics } from '../metrics/rhythm-metrics';
import { RhythmKeeper } from './rhythm-keeper';

/** The usage record, the adaptive window and the pre-wakes it fires (docs/architecture.md). */
export const RHYTHM_PROVIDERS: Provider[] = [
  {
    provide: RhythmMetrics,
    useFactory: (metrics: PodwardenMetrics, config: PodwardenConfig, rhythms: RhythmStore) =>
      new RhythmMetrics(metrics, config, rhythms),
    inject: [PodwardenMetrics, CONFIG, RhythmStore],
  },
  {
    provide: RhythmKeeper,
    useFactory: (
      config: PodwardenConfig,
      usage: UsageStore,
      rhythms: RhythmStore,
      history: WakeHistory,
      wakes: Queue<WakeJobData, WakeJobResult>,
      ledger: BudgetLedger,
      events: PodEventPublisher,
      metrics: RhythmMetrics,
      logger: AppLogger,
    ) =>
      new RhythmKeeper({
        config,
        usage,
        rhythms,
        history,
        enqueue: async (pod) =>
          String((await enqueueWake(wakes, pod, PREWAKE_REQUESTER, config.tuning)).job.id),
        ledger,
        events,
        countPrewake: metrics.count,
        logger,
      }),
    inject: [
      CONFIG,
      UsageStore,
      RhythmStore,
      WakeHistory,
      getQueueToken(WAKE_QUEUE),
      BudgetLedger,
      PodEventPublisher,
      RhythmMetrics,
      LOGGER,
    ],
  },
];
