import type { Provider } from '@nestjs/common';
import { IdleTickService } from './idle/idle-tick.service';
import { IdleTickDependencies, TICK_LIST_READERS, type TickListReader } from './idle/idle-tick-dependencies';
import { TickStatusEffects } from './idle/tick-status-effects';
import { TickStatusEffectsWiring } from './idle/tick-status-effects-wiring';
import { OrphanReaper, OrphanReaperDependencies } from './idle/orphan-reaper';
import { StopConfirmer, StopConfirmerDependencies } from './idle/stop-confirmer';
import { StopIntentReconciler, StopIntentReconcilerDependencies } from './idle/stop-intent-reconciler';
import { CostMetrics, CostMetricsSources } from './metrics/cost-metrics';

/** The idle tick and the readers of its one list: orphan sweep, confirmed stops, stop intents, costs. */
export const IDLE_TICK_PROVIDERS: Provider[] = [
  OrphanReaperDependencies,
  OrphanReaper,
  StopConfirmerDependencies,
  StopConfirmer,
  StopIntentReconcilerDependencies,
  StopIntentReconciler,
  CostMetricsSources,
  CostMetrics,
  TickStatusEffectsWiring,
  TickStatusEffects,
  {
    provide: TICK_LIST_READERS,
    useFactory: (...readers: TickListReader[]) => readers,
    inject: [CostMetrics, StopConfirmer, StopIntentReconciler],
  },
  IdleTickDependencies,
  IdleTickService,
];
