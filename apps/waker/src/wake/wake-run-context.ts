import type { PodConfig, PodObservation, PodwardenConfig } from '@podwarden/policies';
import {
  recordBillable,
  type AppendOutcome,
  type AppLogger,
  type BillableIntent,
  type IntentClosing,
  type PodEventData,
  type PodEventType,
  type PublishTicket,
  type RecordBillableOptions,
} from '@podwarden/platform';
import type { PodActionResult } from '@podwarden/runpod-client';
import { AbortableControlPlane, type BillableFence } from './abortable-control-plane';
import type { WakeDependencies } from './wake-dependencies';
import type { WakeProgressReporter } from './wake-progress-reporter';
import { WakeRunState } from './wake-run-state';
import { WriteAhead, type IntentDraft } from './write-ahead';

/** The fenced gate as a run sees it: checked before every billable call, aborting the run when lost. */
export interface WakeRunFence extends BillableFence {
  readonly signal: AbortSignal;
  readonly token: number;
}

/** One billable call as a wake step describes it; the context adds the pod, the trigger and the time. */
export type WakeBillableCall = Omit<
  RecordBillableOptions,
  'logger' | 'actions' | 'at' | 'podName' | 'trigger'
> & {
  /** The write-ahead intent this outcome closes (or keeps open in doubt). */
  readonly intent?: BillableIntent;
  /** An ambiguous answer (may have placed a pod): the intent stays open, in doubt, with this status. */
  readonly inDoubtStatus?: number | null;
};

/**
 * Everything one wake's steps share: the pod, the control plane bound to the
 * job's AbortSignal, progress, the run's state, and the one way to wait and
 * to account for a billable call.
 */
export class WakeRunContext {
  readonly state = new WakeRunState();
  readonly runpod: AbortableControlPlane;
  readonly writeAhead: WriteAhead;
  /** The job's signal, joined with the fence's: a stopped or fenced-out run stops waiting at once. */
  private readonly signal?: AbortSignal;

  constructor(
    private readonly deps: WakeDependencies,
    readonly pod: PodConfig,
    readonly progress: WakeProgressReporter,
    jobSignal?: AbortSignal,
    readonly fence?: WakeRunFence,
    readonly attemptId: string = 'unknown',
    /** A pre-wake's RunPod writes are recorded as such, a person's as `wake`. */
    private readonly trigger: 'wake' | 'prewake' = 'wake',
  ) {
    this.writeAhead = new WriteAhead(deps, pod.name, attemptId, fence?.token ?? null);
    const signals = [jobSignal, fence?.signal].filter((s): s is AbortSignal => s !== undefined);
    this.signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    this.runpod = new AbortableControlPlane(deps.client, this.signal, fence, jobSignal);
  }

  get config(): PodwardenConfig {
    return this.deps.config;
  }

  get log(): AppLogger {
    return this.deps.logger;
  }

  get ledger(): WakeDependencies['ledger'] {
    return this.deps.ledger;
  }

  /** Announces something about this pod on its event stream; never fails the wake (the publisher logs). */
  async announce(type: PodEventType, data: PodEventData): Promise<void> {
    await this.deps.events.publish(this.pod.name, type, { attemptId: this.attemptId, ...data });
  }

  now(): Date {
    return this.deps.now();
  }

  /** A wait between calls; a cancelled job ends it at once. */
  pause(ms: number): Promise<void> {
    return this.deps.sleep(ms, this.signal);
  }

  /** Before observing every pod on the volume: where the status snapshot stands. */
  async statusTicket(): Promise<PublishTicket | null> {
    return this.deps.status.begin(this.pod.name);
  }

  /** Every pod on the volume observed in one round: GET may answer from it (best effort). */
  async publishVolume(ticket: PublishTicket | null, observations: readonly PodObservation[]): Promise<void> {
    if (observations.length === 0) return;
    const pods = observations.map((observation) => ({ podId: observation.podId, observation }));
    await this.deps.status.publish(this.pod.name, ticket, { kind: 'found', pods });
  }

  get intents(): WakeDependencies['intents'] {
    return this.deps.intents;
  }

  /**
   * The one way a step sends a billable call: the fence is checked, the intent
   * written durably, then the call made; the step records the outcome with
   * `billable({ …, intent })`, which closes the intent.
   */
  async send<T>(draft: IntentDraft, call: () => Promise<T>): Promise<{ result: T; intent: BillableIntent }> {
    await this.runpod.assertMayWrite();
    const intent = await this.writeAhead.open(draft);
    return { result: await call(), intent };
  }

  /**
   * Records the outcome and closes its intent (or keeps it open in doubt) in
   * one atomic write: no crash falls between the row and the intent's fate.
   * 'claimed-elsewhere': a reconcile recorded that intent first; no row added.
   */
  billable(call: WakeBillableCall): Promise<AppendOutcome> {
    const { intent, inDoubtStatus = null, ...record } = call;
    return recordBillable({
      logger: this.deps.logger,
      actions: this.deps.actions,
      at: this.deps.now().toISOString(),
      podName: this.pod.name,
      trigger: this.trigger,
      ...record,
      closing: closingOf(intent, inDoubtStatus),
    });
  }

  /** A start or terminate of a pod already on the volume: the wake does not know its GPU or price. */
  async podAction(
    action: 'Start' | 'Terminate',
    podId: string,
    result: PodActionResult,
    message: string,
    intent?: BillableIntent,
  ): Promise<void> {
    const { httpStatus, ok, detail } = result;
    await this.billable({
      action,
      podId,
      gpuId: null,
      pricePerHour: null,
      httpStatus,
      ok,
      detail,
      message,
      intent,
    });
  }
}

function closingOf(
  intent: BillableIntent | undefined,
  inDoubtStatus: number | null,
): IntentClosing | undefined {
  if (intent === undefined) return undefined;
  return inDoubtStatus === null
    ? { mode: 'claim', intent }
    : { mode: 'in-doubt', intent, answeredStatus: inDoubtStatus };
}
