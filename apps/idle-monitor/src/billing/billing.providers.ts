import type { Provider } from '@nestjs/common';
import { BootDiagnoser, BootDiagnoserDependencies } from '../diagnosis/boot-diagnoser';
import { BillingMetrics } from './billing-metrics';
import { BillingReconcileProcessor } from './billing-reconcile.processor';
import { BillingReconcileSchedulerService } from './billing-reconcile-scheduler.service';
import { BillingReconciler, BillingReconcilerDependencies } from './billing-reconciler';

/** The idle monitor's provider-billing reconcile and boot diagnosis (docs/cost-guards.md, docs/runbook.md). */
export const BILLING_PROVIDERS: Provider[] = [
  BillingMetrics,
  BillingReconcilerDependencies,
  BillingReconciler,
  BootDiagnoserDependencies,
  BootDiagnoser,
  BillingReconcileProcessor,
  BillingReconcileSchedulerService,
];
