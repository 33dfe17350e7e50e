import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ListedPod, PodConfig, PodwardenConfig } from '@podwarden/policies';
import { INITIAL_IDLE_STATE, isPodConfigured, lookupVolume } from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import { CLOCK, CONFIG, LOGGER, RUNPOD_CLIENT, type Clock } from '../app/app-tokens';
import type { AppLogger } from '../logging/logger';
import { ActionLog } from '../records/action-log';
import type { ActionTrigger } from '../records/action-record';
import { IdleStateStore } from '../idle/idle-state-store';
import { errorMessage } from '../util/error-message';
import { PodEventPublisher, type PodEventSink } from '../events/pod-event-publisher';
import { WakeGate } from '../wake/wake-gate';
import { BillableIntents } from '../records/billable-intents';
import { PodwardenMetrics } from '../metrics/podwarden-metrics';
import { PendingStopStore } from './pending-stop-store';
import { StopIntentLog } from './stop-intent-log';
import { recordStopCall, type StopCallRecording } from './record-stop-call';
import { StopPathTerminator, type StopActionCounter } from './stop-path-terminator';

/** A stop sent by the idle monitor's confirmation: recorded with this detail, and not followed anew. */
export interface RestopNote {
  readonly detail: string;
}

export interface PodStopOutcome {
  readonly podId: string;
  readonly ok: boolean;
  /** 0 when no call was needed (already EXITED/TERMINATED) or the transport failed. */
  readonly httpStatus: number;
  readonly called: boolean;
}

export type VolumeStopResult =
  | { kind: 'unconfigured' }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'no-pod' }
  | { kind: 'stopped'; ok: boolean; pods: PodStopOutcome[] };

// Statuses in which a pod no longer bills compute: reported ok without a call.
const ALREADY_DOWN = new Set(['EXITED', 'TERMINATED']);

/**
 * The one stop path: manual stops (gateway) and idle/boot-grace/runtime-cap
 * stops (idle monitor) both go through here, so every stop is recorded the
 * same way and an accepted stop is always the Down edge for readiness.
 */
@Injectable()
export class StopService {
  private readonly intentLog: StopIntentLog;
  private readonly terminator: StopPathTerminator;
  private readonly recording: StopCallRecording;
  private readonly counter: StopActionCounter;
  private readonly now: () => Date;

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(RUNPOD_CLIENT)
    private readonly client: Pick<RunPodClient, 'listPods' | 'stopPod' | 'terminatePod'>,
    @Inject(ActionLog) actions: Pick<ActionLog, 'record'>,
    @Inject(IdleStateStore) private readonly idleStates: IdleStateStore,
    @Inject(LOGGER) private readonly logger: AppLogger,
    @Inject(PodEventPublisher) private readonly events: PodEventSink,
    @Inject(WakeGate) private readonly wakes: Pick<WakeGate, 'stopWakes'>,
    /** Accepted stops are followed here until a tick sees the pod down. */
    @Inject(PendingStopStore) private readonly pendingStops: Pick<PendingStopStore, 'track'>,
    /** Where a Stop intent is written before the call (the waker's write-ahead billable log). */
    @Inject(BillableIntents) intents: Pick<BillableIntents, 'begin'>,
    @Inject(PodwardenMetrics) metrics: Pick<PodwardenMetrics, 'countStopAction'>,
    @Inject(CLOCK) clock: Clock,
  ) {
    const now = (): Date => new Date(clock());
    this.now = now;
    this.counter = metrics.countStopAction;
    this.intentLog = new StopIntentLog(intents, logger, now);
    this.terminator = new StopPathTerminator({
      client,
      actions,
      intents,
      logger,
      now,
      events,
      counter: this.counter,
    });
    this.recording = { actions, logger, now, events };
  }

  /**
   * Stop every pod on the volume (a stale pod and its replacement may both be
   * billing). An operator's stop first fences out the wake in flight on the
   * volume, so that wake starts or creates nothing after this point.
   */
  async stopVolume(pod: PodConfig, trigger: ActionTrigger): Promise<VolumeStopResult> {
    if (!isPodConfigured(this.config, pod)) return { kind: 'unconfigured' };
    if (trigger === 'manual') await this.stopWakeInFlight(pod);
    const list = await this.client.listPods();
    const lookup = lookupVolume(list, pod.volumeId);
    if (lookup.kind === 'unreadable') return { kind: 'unreadable', reason: lookup.reason };
    if (lookup.kind === 'not-found') return { kind: 'no-pod' };
    const listed = list.kind === 'listed' ? list.pods : [];
    const outcomes: PodStopOutcome[] = [];
    for (const podId of lookup.podIds) {
      const entry = listed.find((p) => p.id === podId) ?? null;
      if (entry?.status && ALREADY_DOWN.has(entry.status.toUpperCase())) {
        outcomes.push({ podId, ok: true, httpStatus: 0, called: false });
        continue;
      }
      outcomes.push(await this.stopOne(pod, podId, entry, trigger));
    }
    const ok = outcomes.every((o) => o.ok);
    if (ok) await this.markDown(pod);
    return { kind: 'stopped', ok, pods: outcomes };
  }

  private async stopWakeInFlight(pod: PodConfig): Promise<void> {
    try {
      const token = await this.wakes.stopWakes(pod.volumeId);
      this.logger.info(
        { pod: pod.name, fenceToken: token },
        'operator stop: the wake in flight is fenced out',
      );
    } catch (error) {
      // The pods are still stopped; a wake in flight keeps its gate and may write until it ends.
      this.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        'operator stop could not fence the wake in flight; stopping the pods anyway',
      );
    }
  }

  /** Stop exactly these pods (the idle monitor's targets: every pod it observed up). */
  async stopPods(
    pod: PodConfig,
    podIds: readonly string[],
    trigger: ActionTrigger,
    listed: readonly ListedPod[] = [],
    restop?: RestopNote,
  ): Promise<PodStopOutcome[]> {
    const outcomes: PodStopOutcome[] = [];
    for (const podId of podIds) {
      const entry = listed.find((p) => p.id === podId) ?? null;
      outcomes.push(await this.stopOne(pod, podId, entry, trigger, restop));
    }
    return outcomes;
  }

  /** The ERROR guard's fallback for a pod RunPod will not stop (which pods qualify is its policy's). */
  terminatePod(pod: PodConfig, podId: string, trigger: ActionTrigger, listed: readonly ListedPod[]) {
    return this.terminator.terminate(pod, podId, listed.find((p) => p.id === podId) ?? null, trigger);
  }

  private async stopOne(
    pod: PodConfig,
    podId: string,
    entry: ListedPod | null,
    trigger: ActionTrigger,
    restop?: RestopNote,
  ): Promise<PodStopOutcome> {
    const intent = await this.intentLog.open(pod.name, podId, entry, trigger);
    const result = await this.client.stopPod(podId);
    this.counter('Stop', trigger, result.ok);
    if (result.ok && restop === undefined) await this.follow(pod, podId, trigger);
    // A stop answered after the idle monitor reconciled its intent is already in the action log: not recorded twice.
    const call = { action: 'Stop', podName: pod.name, podId, entry, trigger } as const;
    return recordStopCall(this.recording, call, result, intent, {
      detail:
        restop === undefined ? result.detail : [restop.detail, result.detail].filter(Boolean).join('; '),
      message: result.ok
        ? `${restop === undefined ? 'stopped' : 're-stopped'} pod ${podId} (${trigger})`
        : `stop of pod ${podId} refused (${trigger}, HTTP ${result.httpStatus})`,
    });
  }

  /** An accepted stop is only RunPod's word: the idle monitor follows it until it sees the pod down. */
  private async follow(pod: PodConfig, podId: string, trigger: ActionTrigger): Promise<void> {
    try {
      await this.pendingStops.track(pod.name, podId, trigger, this.now().getTime());
    } catch (error) {
      this.logger.warn(
        { pod: pod.name, podId, err: errorMessage(error) },
        'accepted stop not followed (Redis); it will not be confirmed',
      );
    }
  }

  /**
   * A manual stop RunPod accepted is the Down edge: readiness cleared and the
   * counters' baselines dropped (RunPod reuses the id on the next start, with
   * a new process whose counters begin at zero).
   */
  async markDown(pod: PodConfig): Promise<void> {
    try {
      await this.markDownLocked(pod);
    } catch (error) {
      // The pods are already stopped; a Redis blip here must not turn that into an error.
      // The next idle tick observes them down and takes the Down edge itself.
      this.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        'idle state not reset after the stop; the next tick will see the pods down',
      );
    }
  }

  /** The manual Down edge: the idle monitor will find the state already Down and say nothing. */
  private async announceDown(pod: PodConfig, from: 'Booting' | 'Ready'): Promise<void> {
    await this.events.publish(pod.name, 'phase', {
      phase: 'down',
      from: from === 'Ready' ? 'ready' : 'booting',
      readySince: null,
      stopReason: 'manual',
    });
  }

  private async markDownLocked(pod: PodConfig): Promise<void> {
    // The idle lock's own lease, and as long to wait for it: a tick that still
    // holds it after a lease is running (it renews) and will see the pods down.
    const leaseMs = this.config.tuning.idlePodLockMs;
    // Written through the lock (fenced): a reset that lost the lock mid-way never overwrites a newer tick.
    const outcome = await this.idleStates.withLock(pod.name, randomUUID(), leaseMs, leaseMs, async (lock) => {
      const current = await this.idleStates.load(pod.name);
      if (current.state.phase !== 'Down') await this.announceDown(pod, current.state.phase);
      await lock.save({
        ...current,
        state: INITIAL_IDLE_STATE,
        baselines: {},
        seenUp: [],
        updatedAt: this.now().getTime(),
      });
    });
    if (!outcome.ran) {
      this.logger.warn(
        { pod: pod.name },
        'idle state busy; the Down edge will be seen by the next tick instead',
      );
    }
  }
}
