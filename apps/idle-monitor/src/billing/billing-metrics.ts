import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import type { BootDiagnosisKind } from '@podwarden/policies';
import { PodwardenMetrics } from '@podwarden/platform';

/** Provider billing and boot diagnoses on the idle monitor's /metrics. */
@Injectable()
export class BillingMetrics {
  private readonly providerToday: Gauge;
  private readonly mismatchesNow: Gauge<'pod' | 'kind'>;
  private readonly mismatches: Counter<'pod' | 'kind'>;
  private readonly reconciles: Counter<'outcome'>;
  private readonly diagnoses: Counter<'pod' | 'kind'>;

  constructor(@Inject(PodwardenMetrics) shared: PodwardenMetrics) {
    const registers = [shared.registry];
    this.providerToday = new Gauge({
      name: 'podwarden_provider_spend_today_usd',
      help: "RunPod's billing today (UTC) for the pods podwarden knows and every pod on a configured volume, as of the last readable reconcile (provider-attributed, beside podwarden_spend_today_usd's estimate); NaN before the first",
      registers,
    });
    this.providerToday.set(Number.NaN);
    this.mismatchesNow = new Gauge({
      name: 'podwarden_billing_mismatches',
      help: 'Pods whose billing the last readable reconcile found unexplained by our records (unknown-pod or exceeds), by configured pod and kind',
      labelNames: ['pod', 'kind'] as const,
      registers,
    });
    this.mismatches = new Counter({
      name: 'podwarden_billing_mismatches_total',
      help: 'billing-mismatch findings this replica raised (one per pod per reconcile while unexplained)',
      labelNames: ['pod', 'kind'] as const,
      registers,
    });
    this.reconciles = new Counter({
      name: 'podwarden_billing_reconciles_total',
      help: 'Billing reconciles this replica ran, by outcome (read, unreadable)',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.diagnoses = new Counter({
      name: 'podwarden_boot_diagnoses_total',
      help: 'Boot diagnoses this replica made, by configured pod and kind',
      labelNames: ['pod', 'kind'] as const,
      registers,
    });
  }

  reconciled(providerTodayUsd: number, found: readonly { podName: string; kind: string }[]): void {
    this.reconciles.inc({ outcome: 'read' });
    this.providerToday.set(providerTodayUsd);
    this.mismatchesNow.reset();
    for (const mismatch of found) {
      this.mismatchesNow.inc({ pod: mismatch.podName, kind: mismatch.kind });
      this.mismatches.inc({ pod: mismatch.podName, kind: mismatch.kind });
    }
  }

  unreadable(): void {
    this.reconciles.inc({ outcome: 'unreadable' });
  }

  diagnosed(podName: string, kind: BootDiagnosisKind): void {
    this.diagnoses.inc({ pod: podName, kind });
  }
}
