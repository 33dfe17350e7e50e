import type { Provider } from '@nestjs/common';
import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient, RunPodInsights } from '@podwarden/runpod-client';
import {
  ActionLog,
  BillingStore,
  CONFIG,
  DiagnosisStore,
  LOGGER,
  PodEventPublisher,
  PodwardenMetrics,
  RUNPOD_CLIENT,
  RUNPOD_INSIGHTS,
  type AppLogger,
} from '@podwarden/platform';
import { BootDiagnoser } from '../diagnosis/boot-diagnoser';
import { BillingMetrics } from './billing-metrics';
import { BillingReconcileProcessor } from './billing-reconcile.processor';
import { BillingReconcileSchedulerService } from './billing-reconcile-scheduler.service';
import { BillingReconciler } from './billing-reconciler';

/** The idle monitor's provider-billing reconcile and boot diagnosis (docs/cost-guards.md, docs/runbook.md). */
export const BILLING_PROVIDERS: Provider[] = [
  {
    provide: BillingMetrics,
    useFactory: (m: PodwardenMetrics) => new BillingMetrics(m),
    inject: [PodwardenMetrics],
  },
  {
    provide: BillingReconciler,
    useFactory: (
      config: PodwardenConfig,
      client: RunPodClient,
      insights: RunPodInsights,
      actions: ActionLog,
      store: BillingStore,
      events: PodEventPublisher,
      metrics: BillingMetrics,
      logger: AppLogger,
    ) =>
      new BillingReconciler({
        config,
        client,
        insights,
        actions,
        store,
        events,
        metrics,
        logger,
        now: () => Date.now(),
      }),
    inject: [
      CONFIG,
      RUNPOD_CLIENT,
      RUNPOD_INSIGHTS,
      ActionLog,
      BillingStore,
      PodEventPublisher,
      BillingMetrics,
      LOGGER,
    ],
  },
  {
    provide: BootDiagnoser,
    useFactory: (
      config: PodwardenConfig,
      insights: RunPodInsights,
      actions: ActionLog,
      store: DiagnosisStore,
      events: PodEventPublisher,
      metrics: BillingMetrics,
      logger: AppLogger,
    ) =>
      new BootDiagnoser({ config, insights, actions, store, events, metrics, logger, now: () => Date.now() }),
    inject: [CONFIG, RUNPOD_INSIGHTS, ActionLog, DiagnosisStore, PodEventPublisher, BillingMetrics, LOGGER],
  },
  BillingReconcileProcessor,
  BillingReconcileSchedulerService,
];
