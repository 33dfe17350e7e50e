import type { PodConfig } from '@podwarden/policies';
import { awaitNewPod } from './steps/await-new-pod';
import { chooseGpuCandidates } from './steps/choose-gpu-candidates';
import { driveExistingPods } from './steps/drive-existing-pods';
import { readVolume } from './steps/read-volume';
import { reconcileIntents } from './steps/reconcile-intents';
import { reserveBudget } from './steps/reserve-budget';
import { terminateStalePods } from './steps/terminate-stale-pods';
import { walkCreateAttempts } from './steps/walk-create-attempts';
import type { WakeDependencies } from './wake-dependencies';
import type { WakeProgressReporter } from './wake-progress-reporter';
import { created, refused, serving, withKeptPods, type WakeResult } from './wake-result';
import { WakeRunContext, type WakeRunFence } from './wake-run-context';

/**
 * Ensures a pod on the volume is RUNNING on an acceptable GPU, as the steps under ./steps; every branch
 * asks a policy and every billable call is recorded. Safe to run twice (a stalled job re-runs): it always
 * starts from a fresh read of the volume.
 */
export class WakeRun {
  private readonly ctx: WakeRunContext;

  constructor(
    deps: WakeDependencies,
    pod: PodConfig,
    progress: WakeProgressReporter,
    signal?: AbortSignal,
    fence?: WakeRunFence,
    attemptId?: string,
    trigger: 'wake' | 'prewake' = 'wake',
  ) {
    this.ctx = new WakeRunContext(deps, pod, progress, signal, fence, attemptId, trigger);
  }

  async run(): Promise<WakeResult> {
    const { ctx } = this;
    if (!ctx.runpod.isConfigured || ctx.pod.volumeId.trim() === '') {
      return refused(
        'RunPod is not configured (RUNPOD_API_KEY or the volume id is missing)',
        ctx.state.diagnostics(),
      );
    }
    await ctx.progress.report('lookup', `looking up pods on volume ${ctx.pod.volumeId}`);
    const lookup = await readVolume(ctx);
    if (lookup.kind === 'unreadable') {
      return ctx.state.declined(
        `volume lookup unreadable (${lookup.reason}); nothing was started or created`,
      );
    }
    await reconcileIntents(ctx);
    if (lookup.kind === 'not-found') return this.replace([]);
    const driven = await driveExistingPods(ctx, lookup.podIds);
    switch (driven.kind) {
      case 'ended':
        return driven.result;
      case 'replace':
        return this.replace(driven.stalePodIds);
      case 'serving': {
        const { servingPodId, stalePodIds, observations } = driven;
        const kept = await terminateStalePods(ctx, servingPodId, stalePodIds, observations);
        const startedByUs = ctx.state.wasStartedByUs(servingPodId);
        return withKeptPods(serving(servingPodId, startedByUs, ctx.state.diagnostics()), kept);
      }
    }
  }

  /** No pod on the volume can serve: place a new one, and only once it runs retire the stale ones. */
  private async replace(stalePodIds: readonly string[]): Promise<WakeResult> {
    const { ctx } = this;
    const choice = await chooseGpuCandidates(ctx, stalePodIds);
    if (choice.kind === 'ended') return choice.result;
    // The dearest card the walk may end on: the most this create can bill per hour.
    const overBudget = await reserveBudget(ctx, Math.max(...choice.candidates.map((c) => c.pricePerHour)));
    if (overBudget !== null) return overBudget;
    const placement = await walkCreateAttempts(ctx, choice.candidates, stalePodIds);
    if (placement.kind === 'ended') return placement.result;
    const wait = await awaitNewPod(ctx, placement.podId, placement.candidate);
    if (wait.kind === 'ended') return wait.result;
    const kept = await terminateStalePods(ctx, placement.podId, stalePodIds);
    return withKeptPods(created(placement.podId, placement.candidate, ctx.state.diagnostics()), kept);
  }
}
