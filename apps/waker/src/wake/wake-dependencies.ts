import type { PodwardenConfig } from '@podwarden/policies';
import type {
  ActionLog,
  AppLogger,
  BillableIntents,
  BudgetLedger,
  PodEventSink,
  StatusPublisher,
} from '@podwarden/platform';
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
  /** The write-ahead billable log: an intent before every billable call, closed by its outcome's record (ActionLog.record). */
  readonly intents: Pick<BillableIntents, 'begin' | 'settle' | 'open'>;
  readonly logger: AppLogger;
  readonly sleep: Sleep;
  readonly now: () => Date;
  /** Publishes what the wake observed as the status snapshot GET answers from, and drops it when the wake ends. */
  readonly status: Pick<StatusPublisher, 'begin' | 'publish' | 'invalidate'>;
  /** The daily-budget ledger: a reservation before any start or create. */
  readonly ledger: Pick<BudgetLedger, 'reserve'>;
  /** Wake requested, progress, outcome and budget refusals, for the gateway's event stream. */
  readonly events: PodEventSink;
}
