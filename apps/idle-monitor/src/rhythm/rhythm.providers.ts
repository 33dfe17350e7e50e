import type { Provider } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  PREWAKE_REQUESTER,
  WAKE_QUEUE,
  enqueueWake,
  type WakeJobData,
  type WakeJobResult,
} from '@podwarden/platform';
import { RhythmMetrics } from '../metrics/rhythm-metrics';
import { RhythmKeeper, type PrewakeEnqueuer } from './rhythm-keeper';
import { PREWAKE_COUNTER, PREWAKE_ENQUEUER, RhythmKeeperWiring } from './rhythm-keeper-wiring';

/** The usage record, the adaptive window and the pre-wakes it fires (docs/architecture.md). */
export const RHYTHM_PROVIDERS: Provider[] = [
  RhythmMetrics,
  {
    provide: PREWAKE_ENQUEUER,
    useFactory:
      (wakes: Queue<WakeJobData, WakeJobResult>, config: PodwardenConfig): PrewakeEnqueuer =>
      async (pod) =>
        String((await enqueueWake(wakes, pod, PREWAKE_REQUESTER, config.tuning)).job.id),
    inject: [getQueueToken(WAKE_QUEUE), CONFIG],
  },
  {
    provide: PREWAKE_COUNTER,
    useFactory: (metrics: RhythmMetrics) => metrics.count,
    inject: [RhythmMetrics],
  },
  RhythmKeeperWiring,
  RhythmKeeper,
];
