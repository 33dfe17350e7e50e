import type { PodwardenConfig } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import { FakeRunPod, RecordedEvents, captureLogs, testConfig } from '@podwarden/testing';
import type { PodEventSink } from '../events/pod-event-publisher';
import type { Clock } from '../app/app-tokens';
import type { IdleStateStore } from '../idle/idle-state-store';
import type { AppLogger } from '../logging/logger';
import type { PodwardenMetrics } from '../metrics/podwarden-metrics';
import type { ActionLog } from '../records/action-log';
import type { ActionRecord } from '../records/action-record';
import type { BillableIntent, BillableIntents } from '../records/billable-intents';
import type { PendingStopStore } from '../stop/pending-stop-store';
import { StopService } from '../stop/stop-service';
import type { WakeGate } from '../wake/wake-gate';

/** Every dependency of the stop path, as its constructor takes them. */
export interface StopServiceDependencies {
  readonly config: PodwardenConfig;
  readonly client: Pick<RunPodClient, 'listPods' | 'stopPod' | 'terminatePod'>;
  readonly actions: Pick<ActionLog, 'record'>;
  readonly idleStates: IdleStateStore;
  readonly logger: AppLogger;
  readonly events: PodEventSink;
  readonly wakes: Pick<WakeGate, 'stopWakes'>;
  readonly pendingStops: Pick<PendingStopStore, 'track'>;
  readonly intents: Pick<BillableIntents, 'begin'>;
  readonly metrics: Pick<PodwardenMetrics, 'countStopAction'>;
  readonly now: Clock;
}

/** The action log: every record kept in order. */
export class RecordingStopActions {
  readonly entries: ActionRecord[] = [];
  async record(entry: ActionRecord): Promise<'recorded'> {
    this.entries.push(entry);
    return 'recorded';
  }
}

/** The wake gate: every volume fenced, answering fence token 0. */
export class RecordingWakeFence {
  readonly fenced: string[] = [];
  async stopWakes(volumeId: string): Promise<number> {
    this.fenced.push(volumeId);
    return 0;
  }
}

/** The pending-stop store: every follow kept. */
export class RecordingStopFollows {
  readonly tracked: unknown[][] = [];
  async track(...args: unknown[]): Promise<void> {
    this.tracked.push(args);
  }
}

/** The write-ahead log: every intent begun kept. */
export class RecordingStopIntents {
  readonly begun: BillableIntent[] = [];
  async begin(intent: BillableIntent): Promise<void> {
    this.begun.push(intent);
  }
}

/** The stop counter: every count kept as "action trigger accepted". */
export class RecordingStopCounts {
  readonly counted: string[] = [];
  readonly countStopAction = (action: string, trigger: string, accepted: boolean): void => {
    this.counted.push(`${action} ${trigger} ${accepted}`);
  };
}

/**
 * A StopService on recording fakes for every dependency it is not handed; the
 * idle-state store is always the caller's (the Down edge's lock is Redis's).
 */
export function newStopService(
  deps: Partial<StopServiceDependencies> & Pick<StopServiceDependencies, 'idleStates'>,
): StopService {
  const logger = deps.logger ?? captureLogs().logger;
  return new StopService(
    deps.config ?? testConfig(),
    deps.client ?? new FakeRunPod(),
    deps.actions ?? new RecordingStopActions(),
    deps.idleStates,
    logger,
    deps.events ?? new RecordedEvents(),
    deps.wakes ?? new RecordingWakeFence(),
    deps.pendingStops ?? new RecordingStopFollows(),
    deps.intents ?? new RecordingStopIntents(),
    deps.metrics ?? new RecordingStopCounts(),
    deps.now ?? (() => Date.now()),
  );
}
