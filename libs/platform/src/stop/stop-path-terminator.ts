import type { ListedPod, PodConfig } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import type { AppLogger } from '../logging/logger';
import type { ActionLog } from '../records/action-log';
import type { ActionTrigger } from '../records/action-record';
import type { PodEventSink } from '../events/pod-event-publisher';
import type { PodStopOutcome } from './stop-service';
import type { BillableIntents } from '../records/billable-intents';
import { StopIntentLog } from './stop-intent-log';
import { recordStopCall } from './record-stop-call';

/** Counts each stop or terminate call sent, by trigger and whether RunPod accepted it (PodwardenMetrics). */
export type StopActionCounter = (
  action: 'Stop' | 'Terminate',
  trigger: ActionTrigger,
  accepted: boolean,
) => void;

export interface StopPathTerminatorDependencies {
  readonly client: Pick<RunPodClient, 'terminatePod'>;
  readonly actions: Pick<ActionLog, 'record'>;
  /** Where the Terminate intent is written before the call (the write-ahead billable log). */
  readonly intents?: Pick<BillableIntents, 'begin'>;
  readonly logger: AppLogger;
  readonly now: () => Date;
  readonly events?: PodEventSink;
  readonly counter?: StopActionCounter;
}

/**
 * The ERROR guard's last resort for a pod RunPod will not stop, recorded like a stop (intent, claiming
 * answer, `stop` event with `action: "terminate"`, counter). Which pods may be terminated is the caller's.
 */
export class StopPathTerminator {
  private readonly intentLog: StopIntentLog;

  constructor(private readonly deps: StopPathTerminatorDependencies) {
    this.intentLog = new StopIntentLog(deps.intents, deps.logger, deps.now);
  }

  async terminate(
    pod: PodConfig,
    podId: string,
    entry: ListedPod | null,
    trigger: ActionTrigger,
  ): Promise<PodStopOutcome> {
    const { deps } = this;
    const intent = await this.intentLog.open(pod.name, podId, entry, trigger, 'Terminate');
    const result = await deps.client.terminatePod(podId);
    deps.counter?.('Terminate', trigger, result.ok);
    const call = { action: 'Terminate', podName: pod.name, podId, entry, trigger } as const;
    return recordStopCall(deps, call, result, intent, {
      detail: result.detail,
      message: result.ok
        ? `terminated pod ${podId} (${trigger})`
        : `termination of pod ${podId} refused (${trigger}, HTTP ${result.httpStatus})`,
    });
  }
}
