import { isStopIntentDue, type PodConfig, type PodList, type PodwardenConfig } from '@podwarden/policies';
import {
  errorMessage,
  listedStatus,
  recordBillable,
  unansweredIntentRow,
  type ActionLog,
  type AppLogger,
  type BillableIntent,
  type BillableIntents,
} from '@podwarden/platform';
import type { TickListReader } from './idle-tick-dependencies';

export interface StopIntentReconcilerDependencies {
  /** Its RunPod client timeout: an intent younger than that may still have a caller waiting for the answer. */
  readonly config: PodwardenConfig;
  readonly intents: Pick<BillableIntents, 'open'>;
  readonly actions: Pick<ActionLog, 'record'>;
  readonly logger: AppLogger;
  readonly now: () => number;
}

/**
 * Stops (and ERROR-guard terminates) whose caller died before RunPod answered: past the client timeout the
 * tick records them from its own list, claiming the intent in the same atomic write so a late answer and
 * this never both record. Never throws: the tick's idle decisions come first.
 */
export class StopIntentReconciler implements TickListReader {
  constructor(private readonly deps: StopIntentReconcilerDependencies) {}

  async read(pods: readonly PodConfig[], list: PodList): Promise<void> {
    for (const pod of pods) {
      try {
        await this.reconcilePod(pod, list);
      } catch (error) {
        this.deps.logger.error(
          { pod: pod.name, err: errorMessage(error) },
          'stop intents not reconciled this tick',
        );
      }
    }
  }

  private async reconcilePod(pod: PodConfig, list: PodList): Promise<void> {
    const { intents, config, now } = this.deps;
    const open = await intents.open(pod.name);
    for (const intent of open) {
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

/** What the tick's list says of the pod the stop was sent to: the evidence of whether it took. */
function observedStatus(intent: BillableIntent, list: PodList): string {
  if (list.kind !== 'listed') return 'unknown (the list was unreadable)';
  return listedStatus(list.pods.find((p) => p.id === intent.podId));
}
