import type { PodwardenConfig } from '@podwarden/policies';
import type { ActionLog, AppLogger, BudgetLedger } from '@podwarden/platform';
import type { RunPodClient } from '@podwarden/runpod-client';
import type { Sleep } from './sleeper';

/** The RunPod calls a wake makes; RunPodClient satisfies it, tests script a fake. */
export type WakeControlPlane = Pick<
  RunPodClient,
  'isConfigured' | 'listPods' | 'observePod' | 'startPod' | 'createPod' | 'terminatePod' | 'getCatalog'
>;

/** What every wake needs from outside; the clock and the sleep are injected so specs never wait. */
export interface WakeDependencies {
  readonly config: PodwardenConfig;
  readonly client: WakeControlPlane;
  readonly actions: Pick<ActionLog, 'record'>;
  readonly logger: AppLogger;
  readonly sleep: Sleep;
  readonly now: () => Date;
  /** The daily-budget ledger: a reservation before any start or create. */
  readonly ledger?: Pick<BudgetLedger, 'reserve'>;
}
