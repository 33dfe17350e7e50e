import type { FactoryProvider } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import {
  ActionLog,
  BillableIntents,
  BudgetLedger,
  CONFIG,
  LOGGER,
  PodEventPublisher,
  RUNPOD_CLIENT,
  StatusPublisher,
  WakeGate,
  WakeHistory,
  WakeProgressStore,
  type AppLogger,
} from '@podwarden/platform';
import type { RunPodClient } from '@podwarden/runpod-client';
import { realSleep } from './wake/sleeper';
import { WakeJobRunner } from './wake/wake-job-runner';

// How often a job that joined a wake in flight looks for its result: quick
// enough that a direct producer hears back promptly, cheap on Redis.
const JOIN_POLL_MS = 250;

/** The job runner with the platform's stores, the real client, the real clock and real sleeps. */
export const wakeJobRunnerProvider: FactoryProvider<WakeJobRunner> = {
  provide: WakeJobRunner,
  useFactory: (
    config: PodwardenConfig,
    logger: AppLogger,
    client: RunPodClient,
    actions: ActionLog,
    history: WakeHistory,
    progress: WakeProgressStore,
    gate: WakeGate,
    status: StatusPublisher,
    events: PodEventPublisher,
    intents: BillableIntents,
    ledger: BudgetLedger,
  ) =>
    new WakeJobRunner({
      config,
      client,
      actions,
      intents,
      history,
      progress,
      gate,
      events,
      ledger,
      logger,
      sleep: realSleep,
      joinSleep: realSleep,
      now: () => new Date(),
      gateLeaseMs: config.wake.jobLockMs,
      joinPollMs: JOIN_POLL_MS,
      status,
    }),
  inject: [
    CONFIG,
    LOGGER,
    RUNPOD_CLIENT,
    ActionLog,
    WakeHistory,
    WakeProgressStore,
    WakeGate,
    StatusPublisher,
    PodEventPublisher,
    BillableIntents,
    BudgetLedger,
  ],
};
