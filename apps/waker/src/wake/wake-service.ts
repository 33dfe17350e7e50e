import {
  advanceCreateWalk,
  decidePod,
  decideVolume,
  describeCreateEnding,
  describeExclusions,
  lookupVolume,
  mayTerminate,
  rankPods,
  selectGpus,
  startCreateWalk,
  type CreateWalkStep,
  type GpuCandidate,
  type PodConfig,
  type PodObservation,
  type PodwardenConfig,
  type VolumeLookup,
} from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import type { ActionLog, ActionRecord, AppLogger } from '@podwarden/platform';
import type { Sleep } from './sleeper';
import type { WakeProgressReporter } from './wake-progress-reporter';
import { providerFailed, refused, type WakeContext, type WakeResult } from './wake-result';

/** The RunPod calls a wake makes; RunPodClient satisfies it, tests script a fake. */
export type WakeControlPlane = Pick<
  RunPodClient,
  'isConfigured' | 'listPods' | 'observePod' | 'startPod' | 'createPod' | 'terminatePod' | 'getCatalog'
>;

export interface WakeDependencies {
  readonly config: PodwardenConfig;
  readonly client: WakeControlPlane;
  readonly actions: Pick<ActionLog, 'record'>;
  readonly logger: AppLogger;
  readonly sleep: Sleep;
  readonly now: () => Date;
}

interface ServingPod {
  readonly podId: string;
  readonly status: 'Running';
}

/**
 * Ensures a pod attached to the volume is RUNNING on an acceptable GPU. Holds
 * no decision of its own: every branch asks a policy, every RunPod call goes
 * through the client, every billable call is recorded. Safe to run twice (a
 * stalled job re-runs): it always starts from a fresh read of the volume.
 */
export class WakeRun {
  private candidatesConsidered = 0;
  private lastProviderStatus: number | null = null;
  private readonly startAttempted = new Set<string>();
  private readonly startedPods = new Set<string>();
  /** Set once a call RunPod may bill for went out; after that no ending may claim "nothing billed". */
  private billableIssued = false;

  constructor(
    private readonly deps: WakeDependencies,
    private readonly pod: PodConfig,
    private readonly progress: WakeProgressReporter,
    private readonly signal?: AbortSignal,
  ) {}

  private get context(): WakeContext {
    return { candidatesConsidered: this.candidatesConsidered, lastProviderStatus: this.lastProviderStatus };
  }

  /**
   * A fail-closed guard declining. It is a refusal (nothing billed) only
   * while no billable call went out; after an accepted start, or a create
   * whose answer may have placed a pod, the same guard ends the wake as a
   * provider failure so the history never says Refused for a wake that billed.
   */
  private declined(message: string): WakeResult {
    return this.billableIssued ? providerFailed(message, this.context) : refused(message, this.context);
  }

  private get log(): AppLogger {
    return this.deps.logger;
  }

  async run(): Promise<WakeResult> {
    const { client } = this.deps;
    if (!client.isConfigured || this.pod.volumeId.trim() === '') {
      return refused('RunPod is not configured (RUNPOD_API_KEY or the volume id is missing)', this.context);
    }
    await this.progress.report('lookup', `looking up pods on volume ${this.pod.volumeId}`);
    const lookup = await this.lookup();
    if (lookup.kind === 'unreadable') {
      return this.declined(`volume lookup unreadable (${lookup.reason}); nothing was started or created`);
    }
    if (lookup.kind === 'not-found') {
      return this.createReplacement([]);
    }
    return this.driveExisting([...lookup.podIds]);
  }

  private async lookup(): Promise<VolumeLookup> {
    const list = await this.deps.client.listPods(this.signal);
    return lookupVolume(list, this.pod.volumeId);
  }

  /** Step 2: observe every pod on the volume per round and let the volume policy decide. */
  private async driveExisting(initialPodIds: string[]): Promise<WakeResult> {
    let podIds = initialPodIds;
    let lastSeen: PodObservation[] = [];
    const { maxPolls, pollIntervalMs } = this.deps.config.wake;
    for (let round = 1; round <= maxPolls; round++) {
      await this.progress.report('observe', `round ${round}/${maxPolls}: observing ${podIds.length} pod(s)`);
      const observations = await Promise.all(
        podIds.map((id) => this.deps.client.observePod(id, this.signal)),
      );
      lastSeen = observations;
      const decision = decideVolume(
        observations.map((observation) => ({
          observation,
          startAttempted: this.startAttempted.has(observation.podId),
        })),
      );
      switch (decision.kind) {
        case 'done': {
          const outcome = this.startedPods.has(decision.servingPodId) ? 'Started' : 'AlreadyRunning';
          const serving: ServingPod = { podId: decision.servingPodId, status: 'Running' };
          await this.terminateStale(decision.stalePodIds, serving, observations);
          return {
            outcome,
            failureKind: null,
            podId: decision.servingPodId,
            gpuId: null,
            pricePerHour: null,
            message:
              outcome === 'Started'
                ? `started pod ${decision.servingPodId}`
                : `pod ${decision.servingPodId} is already running`,
            ...this.context,
          };
        }
        case 'repoll':
          break;
        case 'start':
          await this.startExisting(decision.podId);
          break;
        case 'create': {
          const vanished = observations.filter((o) => o.kind === 'not-found');
          if (vanished.length > 0) {
            // A 404 on a remembered id is never a create trigger by itself: a
            // permission-scoped key or a misrouted 404 would bill a second pod
            // next to a live one. Only the volume list can say "no pod".
            const reconfirm = await this.lookup();
            if (reconfirm.kind === 'unreadable') {
              return this.declined(
                `pod ${vanished[0].podId} read as not found and the volume lookup is unreadable (${reconfirm.reason}); nothing was created`,
              );
            }
            if (reconfirm.kind === 'found') {
              podIds = [...reconfirm.podIds];
              if (round < maxPolls) await this.deps.sleep(pollIntervalMs, this.signal);
              continue;
            }
            return this.createReplacement([]);
          }
          return this.createReplacement(decision.stalePodIds);
        }
      }
      if (round < maxPolls) await this.deps.sleep(pollIntervalMs, this.signal);
    }
    return {
      outcome: 'Waiting',
      failureKind: null,
      // The pod coming up, not a stale sibling listed before it.
      podId:
        rankPods(lastSeen.map((observation) => ({ observation })))?.observation.podId ?? podIds[0] ?? null,
      gpuId: null,
      pricePerHour: null,
      message: `a pod on the volume is still starting after ${maxPolls} observe rounds; poll again`,
      ...this.context,
    };
  }

  private async startExisting(podId: string): Promise<void> {
    await this.progress.report('start', `starting stopped pod ${podId}`);
    this.startAttempted.add(podId);
    const result = await this.deps.client.startPod(podId, this.signal);
    if (result.ok) {
      this.startedPods.add(podId);
      this.billableIssued = true;
    } else this.lastProviderStatus = result.httpStatus;
    this.log[result.ok ? 'info' : 'warn'](
      {
        pod: this.pod.name,
        podId,
        gpuId: null,
        pricePerHour: null,
        httpStatus: result.httpStatus,
        billable: 'Start',
      },
      result.ok
        ? `start issued for pod ${podId}`
        : `start of pod ${podId} refused (HTTP ${result.httpStatus})`,
    );
    await this.record('Start', podId, null, null, result.httpStatus, result.ok, result.detail);
  }

  /** Step 3: pick GPUs by policy and walk the create attempts with the single retry budget. */
  private async createReplacement(stalePodIds: string[]): Promise<WakeResult> {
    const { config, client } = this.deps;
    if (this.pod.templateId.trim() === '') {
      return this.declined('RUNPOD_TEMPLATE_ID is not set, so the wake refuses to create a pod');
    }
    await this.progress.report('create', 'reading the GPU catalog');
    const catalog = await client.getCatalog(this.signal);
    const selection = selectGpus(catalog, {
      dataCenterId: this.pod.datacenterId,
      minVramGb: this.pod.minVramGb,
      maxPricePerHour: this.pod.maxPricePerHour,
      allowlist: this.pod.gpuAllowlist,
    });
    const candidates = selection.candidates;
    this.candidatesConsidered = candidates.length;
    if (candidates.length === 0) {
      const why =
        catalog.length === 0
          ? 'the GPU catalog is unreadable or empty'
          : `no GPU in ${this.pod.datacenterId} is eligible under ${this.pod.maxPricePerHour.toFixed(2)} USD/h: ${describeExclusions(selection.excluded)}`;
      return this.declined(`no pod can be created: ${why}`);
    }
    this.log.info(
      { pod: this.pod.name, candidates: candidates.map((c) => `${c.gpuId}@${c.pricePerHour}`), stalePodIds },
      `no pod on volume ${this.pod.volumeId} can serve; creating a replacement`,
    );

    let step: CreateWalkStep = startCreateWalk(candidates.length);
    let retryAfterSeconds: number | null = null;
    for (;;) {
      if (step.kind === 'ended') {
        const message =
          step.ending === 'CreatedWithoutId'
            ? 'RunPod answered the create with success but no pod id; not retrying (check the volume for an untracked pod)'
            : `create ${describeCreateEnding(step)}`;
        return providerFailed(message, this.context);
      }
      const candidate = candidates[step.candidateIndex];
      if (step.kind === 'created') {
        return this.awaitNewPod(step.podId, candidate, stalePodIds);
      }
      if (step.retry) {
        const waitSeconds = Math.min(
          retryAfterSeconds ?? config.wake.pollIntervalMs / 1000,
          config.wake.maxRetryAfterSeconds,
        );
        await this.progress.report(
          'retry-wait',
          `RunPod asked to retry; waiting ${waitSeconds}s before re-reading the volume`,
        );
        await this.deps.sleep(waitSeconds * 1000, this.signal);
        // A 5xx can come back after RunPod committed the create: re-read before
        // re-posting and adopt what is there instead of billing a second pod.
        const reread = await this.lookup();
        if (reread.kind === 'unreadable') {
          return this.declined(
            `volume lookup unreadable before a create retry (${reread.reason}); not re-posting`,
          );
        }
        if (reread.kind === 'found') {
          const adopted = reread.podIds.find((id) => !stalePodIds.includes(id));
          if (adopted) {
            this.log.info(
              {
                pod: this.pod.name,
                podId: adopted,
                gpuId: candidate.gpuId,
                pricePerHour: candidate.pricePerHour,
                billable: 'Create',
              },
              `adopting pod ${adopted} that a failed-looking create placed on the volume`,
            );
            await this.record(
              'Create',
              adopted,
              candidate.gpuId,
              candidate.pricePerHour,
              this.lastProviderStatus ?? 0,
              true,
              'adopted after a transient create failure',
            );
            return this.awaitNewPod(adopted, candidate, stalePodIds);
          }
        }
      }
      await this.progress.report(
        'create',
        `creating a pod on ${candidate.gpuId} at ${candidate.pricePerHour} USD/h`,
      );
      const result = await this.deps.client.createPod(
        {
          name: `${config.podNamePrefix}${this.pod.name}-${utcStamp(this.deps.now())}`,
          templateId: this.pod.templateId,
          dataCenterId: this.pod.datacenterId,
          gpuId: candidate.gpuId,
          volumeId: this.pod.volumeId,
        },
        this.signal,
      );
      this.lastProviderStatus = result.httpStatus;
      retryAfterSeconds = result.retryAfterSeconds;
      if (mayHavePlacedPod(result.httpStatus)) this.billableIssued = true;
      const accepted = result.httpStatus >= 200 && result.httpStatus < 300;
      this.log[accepted && result.podId ? 'info' : 'warn'](
        {
          pod: this.pod.name,
          podId: result.podId,
          gpuId: candidate.gpuId,
          pricePerHour: candidate.pricePerHour,
          httpStatus: result.httpStatus,
          detail: result.detail,
          billable: 'Create',
        },
        accepted
          ? result.podId
            ? `created pod ${result.podId} on ${candidate.gpuId} at ${candidate.pricePerHour} USD/h`
            : `create on ${candidate.gpuId} returned ${result.httpStatus} without a pod id`
          : `create on ${candidate.gpuId} returned ${result.httpStatus}`,
      );
      await this.record(
        'Create',
        result.podId,
        candidate.gpuId,
        candidate.pricePerHour,
        result.httpStatus,
        accepted,
        result.detail,
      );
      step = advanceCreateWalk(step.state, { httpStatus: result.httpStatus, podId: result.podId });
    }
  }

  /** Poll the new pod until the policy says Done; then terminate stale pods through the guard. */
  private async awaitNewPod(
    podId: string,
    candidate: GpuCandidate,
    stalePodIds: string[],
  ): Promise<WakeResult> {
    const { maxPolls, pollIntervalMs } = this.deps.config.wake;
    for (let round = 1; round <= maxPolls; round++) {
      await this.progress.report(
        'poll-new-pod',
        `round ${round}/${maxPolls}: waiting for pod ${podId} to run`,
      );
      const observation = await this.deps.client.observePod(podId, this.signal);
      const verdict = decidePod(observation, false);
      if (verdict === 'Done') {
        await this.terminateStale(stalePodIds, { podId, status: 'Running' }, []);
        return {
          outcome: 'Created',
          failureKind: null,
          podId,
          gpuId: candidate.gpuId,
          pricePerHour: candidate.pricePerHour,
          message: `created pod ${podId} on ${candidate.gpuId} at ${candidate.pricePerHour} USD/h`,
          ...this.context,
        };
      }
      // Not yet listed / unreadable / still starting: poll again. Anything
      // else is a terminal state of a pod we just paid for: nothing is in
      // flight, so this is a failure, not Waiting, and no second create walk.
      if (verdict !== 'WaitAndRepoll' && observation.kind === 'found') {
        const status = `${observation.status} with ${observation.gpuCount} GPU(s)`;
        return providerFailed(`new pod ${podId} reached ${status}; not retrying`, this.context, podId);
      }
      if (round < maxPolls) await this.deps.sleep(pollIntervalMs, this.signal);
    }
    return {
      outcome: 'Waiting',
      failureKind: null,
      podId,
      gpuId: candidate.gpuId,
      pricePerHour: candidate.pricePerHour,
      message: `pod ${podId} created on ${candidate.gpuId} but not running after ${maxPolls} polls; stale pods left intact; poll again`,
      ...this.context,
    };
  }

  /** Step 4: every stale pod is terminated only through the guard, after the replacement is RUNNING. */
  private async terminateStale(
    stalePodIds: readonly string[],
    serving: ServingPod,
    observations: readonly PodObservation[],
  ): Promise<void> {
    for (const staleId of stalePodIds) {
      const seen = observations.find((o) => o.podId === staleId);
      if (seen?.kind === 'found' && seen.status === 'Terminated') continue;
      const allowed = mayTerminate({
        staleId,
        replacementId: serving.podId,
        staleVolumeId: this.pod.volumeId,
        ourVolumeId: this.pod.volumeId,
        replacementStatus: serving.status,
      });
      if (!allowed) {
        this.log.warn(
          { pod: this.pod.name, staleId, servingId: serving.podId },
          `termination guard kept stale pod ${staleId}`,
        );
        continue;
      }
      await this.progress.report('terminate', `terminating stale pod ${staleId}`);
      const result = await this.deps.client.terminatePod(staleId, this.signal);
      this.log[result.ok ? 'info' : 'warn'](
        {
          pod: this.pod.name,
          podId: staleId,
          gpuId: null,
          pricePerHour: null,
          httpStatus: result.httpStatus,
          billable: 'Terminate',
        },
        result.ok
          ? `terminated stale pod ${staleId}`
          : `terminate of stale pod ${staleId} refused (HTTP ${result.httpStatus}); kept`,
      );
      await this.record('Terminate', staleId, null, null, result.httpStatus, result.ok, result.detail);
    }
  }

  private record(
    action: ActionRecord['action'],
    podId: string | null,
    gpuId: string | null,
    pricePerHour: number | null,
    httpStatus: number,
    ok: boolean,
    detail: string | null,
  ): Promise<void> {
    return this.deps.actions.record({
      at: this.deps.now().toISOString(),
      podName: this.pod.name,
      action,
      podId,
      gpuId,
      pricePerHour,
      httpStatus,
      ok,
      trigger: 'wake',
      detail,
    });
  }
}

/** A 2xx placed a pod; a 5xx or a transport failure may have. Only a 4xx refusal surely placed nothing. */
function mayHavePlacedPod(httpStatus: number): boolean {
  return httpStatus < 400 || httpStatus >= 500;
}

/** 20261130T101500Z: sortable, and legal in a RunPod pod name. */
export function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}
