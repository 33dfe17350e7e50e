import { Inject, Injectable } from '@nestjs/common';
import {
  diagnosisOfRun,
  runBilledUsd,
  type PodConfig,
  type PodRun,
  type PodwardenConfig,
} from '@podwarden/policies';
import {
  BillingStore,
  CONFIG,
  DiagnosisStore,
  LOGGER,
  orWarn,
  type AppLogger,
  boundedRead,
} from '@podwarden/platform';
import type { RunDto } from './run.dto';

/**
 * Each run with what RunPod billed for it (once reported past its stop) and its boot diagnosis.
 * Either store unreadable leaves those fields null: the runs themselves still answer.
 */
@Injectable()
export class BilledRuns {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly billing: BillingStore,
    private readonly diagnoses: DiagnosisStore,
  ) {}

  async annotate(pod: PodConfig, runs: readonly PodRun[]): Promise<RunDto[]> {
    const [snapshot, buckets, diagnoses] = await Promise.all([
      this.quietly(pod, () => this.billing.snapshot()),
      this.quietly(pod, () => this.billing.podBuckets(pod.name)),
      this.quietly(pod, () => this.diagnoses.all(pod.name)),
    ]);
    return runs.map((run) => {
      const diagnosis = diagnosisOfRun(run, diagnoses ?? []);
      return {
        ...run,
        billedUsd:
          snapshot === null || !(buckets ?? []).some((bucket) => bucket.podId === run.podId)
            ? null
            : runBilledUsd(run, runs, buckets, Date.parse(snapshot.asOf), snapshot.lagMs),
        diagnosis:
          diagnosis === null ? null : { kind: diagnosis.kind, at: diagnosis.at, summary: diagnosis.summary },
      };
    });
  }

  private quietly<T>(pod: PodConfig, read: () => Promise<T | null>): Promise<T | null> {
    return orWarn(() => boundedRead(this.config, read(), 'run billing'), {
      logger: this.logger,
      fields: { pod: pod.name },
      message: 'run billing or diagnosis unreadable',
      fallback: () => null,
    });
  }
}
