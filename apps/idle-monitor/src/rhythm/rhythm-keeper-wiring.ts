import { Inject, Injectable } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  BudgetLedger,
  CONFIG,
  LOGGER,
  PodEventPublisher,
  RhythmStore,
  UsageStore,
  WakeHistory,
  type AppLogger,
  type PodEventSink,
} from '@podwarden/platform';
import type { PrewakeEnqueuer, PrewakeOutcome, RhythmKeeperDependencies } from './rhythm-keeper';

/** Enqueues a pre-wake on the wake queue (rhythm.providers.ts builds it from the queue and CONFIG). */
export const PREWAKE_ENQUEUER = Symbol('PrewakeEnqueuer');
/** Counts a pre-wake's outcome on /metrics (RhythmMetrics.count). */
export const PREWAKE_COUNTER = Symbol('PrewakeCounter');

/**
 * The rhythm keeper's dependencies as Nest injects them, every one required (a mis-wired ledger or
 * event sink fails at start-up rather than skipping); specs pass a plain RhythmKeeperDependencies.
 */
@Injectable()
export class RhythmKeeperWiring implements RhythmKeeperDependencies {
  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(UsageStore) readonly usage: RhythmKeeperDependencies['usage'],
    @Inject(RhythmStore) readonly rhythms: RhythmKeeperDependencies['rhythms'],
    @Inject(WakeHistory) readonly history: RhythmKeeperDependencies['history'],
    @Inject(PREWAKE_ENQUEUER) readonly enqueue: PrewakeEnqueuer,
    @Inject(BudgetLedger) readonly ledger: Pick<BudgetLedger, 'figures'>,
    @Inject(PodEventPublisher) readonly events: PodEventSink,
    @Inject(PREWAKE_COUNTER) readonly countPrewake: (pod: string, outcome: PrewakeOutcome) => void,
    @Inject(LOGGER) readonly logger: AppLogger,
  ) {}
}
