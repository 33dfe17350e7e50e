import { Inject, Injectable } from '@nestjs/common';
import { findOrphans, type ListedPod, type PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import {
  CONFIG,
  LOGGER,
  RUNPOD_CLIENT,
  errorMessage,
  recordBillable,
  ActionLog,
  BillableIntents,
  type AppLogger,
  type BillableIntent,
  CLOCK,
  stopPathIntent,
} from '@podwarden/platform';

/** Nest builds it from its tokens; specs pass a plain object of this shape. */
@Injectable()
export class OrphanReaperDependencies {
  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(RUNPOD_CLIENT) readonly client: Pick<RunPodClient, 'terminatePod'>,
    @Inject(ActionLog) readonly actions: Pick<ActionLog, 'record'>,
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CLOCK) readonly now: () => number,
    /** The Terminate intent is written here before the call; the tick's StopIntentReconciler closes a dead caller's. */
    @Inject(BillableIntents) readonly intents: Pick<BillableIntents, 'begin'>,
  ) {}
}

/** Running totals since start-up, for /metrics. */
export interface OrphanCounts {
  found: number;
  terminated: number;
}

/**
 * The orphan sweep over the tick's account-wide list: terminates (in dry run only logs) the pods
 * findOrphans picks, with trigger `orphan`. Never throws: a failed sweep must not cost the tick its idle
 * decisions.
 */
@Injectable()
export class OrphanReaper {
  readonly counts: OrphanCounts = { found: 0, terminated: 0 };

  constructor(private readonly deps: OrphanReaperDependencies) {}

  async sweep(pods: readonly ListedPod[], signal?: AbortSignal): Promise<void> {
    const { config, logger } = this.deps;
    const now = this.deps.now();
    const orphans = findOrphans(
      pods,
      { prefix: config.podNamePrefix, graceMs: config.orphanGraceMinutes * 60_000, pods: config.pods },
      now,
    );
    for (const orphan of orphans) {
      this.counts.found += 1;
      const { pod } = orphan;
      const fields = { podId: pod.id, podName: pod.name, volumeIds: pod.volumeIds, ageMs: orphan.ageMs };
      if (config.idleDryRun) {
        logger.warn({ ...fields, dryRun: true }, `would terminate ${pod.id} (orphan)`);
        continue;
      }
      try {
        signal?.throwIfAborted();
        await this.terminate(pod, orphan.recordUnder, now);
      } catch (error) {
        logger.error({ ...fields, err: errorMessage(error) }, `orphan ${pod.id} not terminated`);
      }
    }
  }

  /**
   * Write-ahead like every billable call: the intent (trigger `orphan`, a stop-path intent the waker leaves
   * alone) before the DELETE, claimed by the row. Killed in between, the tick's StopIntentReconciler records
   * it past RUNPOD_TIMEOUT_MS. An intent Redis refuses throws: no call, the next tick tries again.
   */
  private async terminate(pod: ListedPod, recordUnder: string, now: number): Promise<void> {
    const intent = await this.openIntent(pod, recordUnder, now);
    const result = await this.deps.client.terminatePod(pod.id);
    if (result.ok) this.counts.terminated += 1;
    const volumes = pod.volumeIds.length === 0 ? 'no volume' : `volume ${pod.volumeIds.join(', ')}`;
    await recordBillable({
      logger: this.deps.logger,
      actions: this.deps.actions,
      at: new Date(this.deps.now()).toISOString(),
      podName: recordUnder,
      action: 'Terminate',
      podId: pod.id,
      gpuId: pod.gpuId,
      pricePerHour: pod.costPerHr,
      httpStatus: result.httpStatus,
      ok: result.ok,
      trigger: 'orphan',
      detail: `${pod.name ?? pod.id} on ${volumes}, not configured${result.detail ? `; ${result.detail}` : ''}`,
      message: result.ok
        ? `terminated orphan ${pod.id} (${pod.name ?? ''} on ${volumes})`
        : `termination of orphan ${pod.id} refused (HTTP ${result.httpStatus})`,
      closing: { mode: 'claim', intent },
    });
  }

  private async openIntent(pod: ListedPod, recordUnder: string, now: number): Promise<BillableIntent> {
    const intent = stopPathIntent(recordUnder, pod.id, pod, 'orphan', 'Terminate', new Date(now));
    await this.deps.intents.begin(intent);
    return intent;
  }
}
