import { Inject, Injectable } from '@nestjs/common';
import {
  diagnoseBoot,
  shouldDiagnose,
  stopsEarly,
  type BootLogTail,
  type IdleState,
  type ListedPod,
  type PodConfig,
  type PodSignalOf,
  type PodwardenConfig,
  type StopReason,
  type BootDiagnosisKind,
} from '@podwarden/policies';
import type { RunPodInsights } from '@podwarden/runpod-client';
import {
  CONFIG,
  LOGGER,
  RUNPOD_INSIGHTS,
  PodEventPublisher,
  errorMessage,
  redactText,
  ActionLog,
  type AppLogger,
  DiagnosisStore,
  type PodEventSink,
  type StoredDiagnosis,
  CLOCK,
} from '@podwarden/platform';
import { BillingMetrics } from '../billing/billing-metrics';

const FAULTS: ReadonlySet<BootDiagnosisKind> = new Set(['restart-loop', 'application-failure']);

/** Nest builds it from its tokens; specs pass a plain object of this shape. */
@Injectable()
export class BootDiagnoserDependencies {
  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(RUNPOD_INSIGHTS) readonly insights: Pick<RunPodInsights, 'podLogs'>,
    @Inject(ActionLog) readonly actions: Pick<ActionLog, 'recent'>,
    @Inject(DiagnosisStore) readonly store: Pick<DiagnosisStore, 'record'>,
    @Inject(PodEventPublisher) readonly events: PodEventSink,
    @Inject(BillingMetrics) readonly metrics: Pick<BillingMetrics, 'diagnosed'>,
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CLOCK) readonly now: () => number,
  ) {}
}

export interface BootCheck {
  readonly pod: PodConfig;
  /** The volume's state after this tick's advance. */
  readonly state: IdleState;
  /** The stop the phase machine asks for this tick. */
  readonly stopDue: StopReason | null;
  readonly perPod: readonly PodSignalOf[];
  readonly listed: readonly ListedPod[];
  readonly signal?: AbortSignal;
}

/** Pods diagnosed per tick, and actions read to tell the pods we started or created. */
const MAX_PER_TICK = 2;
const ACTIONS_READ = 100;

/**
 * Diagnoses a boot of ours that is late, in ERROR or long from a redacted tail of its logs, kept with the
 * run; answers 'restart-loop' when the tick should stop the pod rather than bill the rest of the grace.
 * Never throws: a diagnosis is evidence, and its failure changes no stop.
 */
@Injectable()
export class BootDiagnoser {
  constructor(private readonly deps: BootDiagnoserDependencies) {}

  async check(req: BootCheck): Promise<'restart-loop' | null> {
    try {
      return await this.diagnose(req);
    } catch (error) {
      req.signal?.throwIfAborted();
      this.deps.logger.warn({ pod: req.pod.name, err: errorMessage(error) }, 'boot diagnosis failed');
      return null;
    }
  }

  private async diagnose(req: BootCheck): Promise<'restart-loop' | null> {
    const onVolume = req.listed.filter((entry) => entry.volumeIds.includes(req.pod.volumeId));
    const inError = onVolume.filter((entry) => entry.status?.toUpperCase() === 'ERROR').map((e) => e.id);
    const booting = req.perPod
      .filter((p) => p.signal === 'Booting' || p.signal === 'UnreachableButRunning')
      .map((p) => p.podId);
    const when = {
      booting: req.state.phase === 'Booting',
      bootingTicks: req.state.bootingTicks,
      afterTicks: this.deps.config.billing.diagnoseAfterTicks,
      bootGraceDue: req.stopDue === 'boot-grace',
      inError: inError.length > 0,
    };
    if (!shouldDiagnose(when)) return null;
    const ours = await this.startedByUs(req.pod);
    const candidates = [...new Set([...inError, ...(when.booting || when.bootGraceDue ? booting : [])])]
      .filter((podId) => ours.has(podId))
      .slice(0, MAX_PER_TICK);
    let stop: 'restart-loop' | null = null;
    for (const podId of candidates) {
      const entry = onVolume.find((e) => e.id === podId) ?? null;
      const hasRuntime = req.perPod.some((p) => p.podId === podId && p.signal === 'UnreachableButRunning');
      const diagnosis = diagnoseBoot({
        logs: await this.logs(podId, req.signal),
        status: entry?.status ?? null,
        hasRuntime,
      });
      await this.keep(req.pod, { podId, at: new Date(this.deps.now()).toISOString(), ...diagnosis });
      if (stopsEarly(diagnosis, true)) stop = 'restart-loop';
    }
    return stop;
  }

  /** The pods an accepted Start or Create of ours put on the volume. */
  private async startedByUs(pod: PodConfig): Promise<Set<string>> {
    const actions = await this.deps.actions.recent(pod.name, ACTIONS_READ);
    return new Set(
      actions
        .filter((a) => a.ok && (a.action === 'Start' || a.action === 'Create') && a.podId !== null)
        .map((a) => a.podId as string),
    );
  }

  private async logs(podId: string, signal?: AbortSignal): Promise<BootLogTail> {
    const read = await this.deps.insights.podLogs(podId, undefined, signal);
    if (read.kind === 'not-found') return { kind: 'unreadable', reason: 'pod not found' };
    if (read.kind === 'unreadable') return read;
    const { config } = this.deps;
    const secrets = [
      config.runpod.apiKey,
      config.operatorToken,
      config.wakeToken,
      ...config.pods.map((p) => p.inferenceToken),
    ];
    return {
      kind: 'read',
      lines: read.lines.map((line) => ({ ...line, line: redactText(line.line, secrets) })),
    };
  }

  private async keep(pod: PodConfig, diagnosis: StoredDiagnosis): Promise<void> {
    const fresh = await this.deps.store.record(pod.name, diagnosis);
    if (!fresh) return;
    this.deps.metrics.diagnosed(pod.name, diagnosis.kind);
    // A slow pull or an undecided boot is what a normal first boot looks like: a Warning only for a fault.
    const level = FAULTS.has(diagnosis.kind) ? 'warn' : 'info';
    this.deps.logger[level](
      { pod: pod.name, podId: diagnosis.podId, kind: diagnosis.kind, evidence: diagnosis.evidence },
      `boot diagnosis of ${diagnosis.podId}: ${diagnosis.summary}`,
    );
    await this.deps.events.publish(pod.name, 'boot-diagnosis', { ...diagnosis });
  }
}
