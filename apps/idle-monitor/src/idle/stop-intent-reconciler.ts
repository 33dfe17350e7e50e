import { Inject, Injectable } from '@nestjs/common';
import { isStopIntentDue, type PodConfig, type PodList, type PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  errorMessage,
  listedStatus,
  recordBillable,
  unansweredIntentRow,
  ActionLog,
  type AppLogger,
  type BillableIntent,
  BillableIntents,
  CLOCK,
} from '@podwarden/platform';
import type { TickListReader } from './idle-tick-dependencies';

/** Nest builds it from its tokens; specs pass a plain object of this shape. */
@Injectable()
export class StopIntentReconcilerDependencies {
  constructor(
    /** Its RunPod client timeout: an intent younger than that may still have a caller waiting for the answer. */
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(BillableIntents) readonly intents: Pick<BillableIntents, 'open'>,
    @Inject(ActionLog) readonly actions: Pick<ActionLog, 'record'>,
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CLOCK) readonly now: () => number,
  ) {}
}

/**
 * Stops (and ERROR-guard terminates) whose caller died before RunPod answered: past the client timeout the
 * tick records them from its own list, claiming the intent in the same atomic write so a late answer and
 * this never both record. Never throws: the tick's idle decisions come first.
 */
@Injectable()
export class StopIntentReconciler implements TickListReader {
  constructor(private readonly deps: StopIntentReconcilerDependencies) {}

  async read(pods: readonly PodConfig[], list: PodList): Promise<void> {
    // Every pod's intents read at once (the store batches them), then acted on one pod at a time.
    const opens = await Promise.all(pods.map((pod) => this.deps.intents.open(pod.name).then(ok, failed)));
    for (const [i, pod] of pods.entries()) {
      try {
        await this.reconcilePod(opens[i], list);
      } catch (error) {
        this.deps.logger.error(
          { pod: pod.name, err: errorMessage(error) },
          'stop intents not reconciled this tick',
        );
      }
    }
  }

  private async reconcilePod(opened: Opened, list: PodList): Promise<void> {
    const { config, now } = this.deps;
    if (!opened.ok) throw opened.error;
    for (const intent of opened.intents) {
      if (!isStopIntentDue(intent, now(), config.tuning.runpodTimeoutMs)) continue;
      await this.record(intent, observedStatus(intent, list));
    }
  }

  private async record(intent: BillableIntent, status: string): Promise<void> {
    await recordBillable({
      logger: this.deps.logger,
      actions: this.deps.actions,
      at: new Date(this.deps.now()).toISOString(),
      podName: intent.podName,
      ...unansweredIntentRow(intent),
      trigger: intent.trigger ?? 'manual',
      detail: `reconciled from an intent whose caller died before RunPod answered (sent ${intent.at}); answer unknown; the pod is now ${status}`,
      message: `reconciled ${intent.action === 'Stop' ? 'stop' : 'terminate'} of pod ${intent.podId ?? '-'} whose caller died before its answer (now ${status})`,
      closing: { mode: 'claim', intent },
    });
  }
}

type Opened = { ok: true; intents: BillableIntent[] } | { ok: false; error: unknown };
const ok = (intents: BillableIntent[]): Opened => ({ ok: true, intents });
const failed = (error: unknown): Opened => ({ ok: false, error });

/** What the tick's list says of the pod the stop was sent to: the evidence of whether it took. */
function observedStatus(intent: BillableIntent, list: PodList): string {
  if (list.kind !== 'listed') return 'unknown (the list was unreadable)';
  return listedStatus(list.pods.find((p) => p.id === intent.podId));
}
