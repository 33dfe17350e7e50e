import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  decideStopConfirmation,
  sightingOf,
  type ListedPod,
  type PendingStop,
  type PodConfig,
  type PodList,
  type PodwardenConfig,
  type StopConfirmVerdict,
  type StopSighting,
} from '@podwarden/policies';
import {
  CLOCK,
  CONFIG,
  LOGGER,
  errorMessage,
  ActionLog,
  type ActionRecord,
  type ActionTrigger,
  type AppLogger,
  IdleStateStore,
  PendingStopStore,
  StopService,
} from '@podwarden/platform';
import type { TickListReader } from './idle-tick-dependencies';

/** Nest builds it from its tokens; specs pass a plain object of this shape. */
@Injectable()
export class StopConfirmerDependencies {
  constructor(
    @Inject(CONFIG) readonly config: PodwardenConfig,
    @Inject(PendingStopStore) readonly pending: Pick<PendingStopStore, 'all' | 'apply'>,
    /** The per-pod idle lock: one replica judges a pod's stops per tick. */
    @Inject(IdleStateStore) readonly locks: Pick<IdleStateStore, 'withLock'>,
    @Inject(ActionLog) readonly actions: Pick<ActionLog, 'recent'>,
    @Inject(StopService) readonly stops: Pick<StopService, 'stopPods'>,
    @Inject(LOGGER) readonly logger: AppLogger,
    @Inject(CLOCK) readonly now: () => number,
  ) {}
}

// Enough of the action log to find the newest wake start or create of a pod.
const RECENT_ACTIONS = 20;

/**
 * Follows every accepted stop, from the tick's own list, until its pod is seen EXITED, TERMINATED or gone;
 * one still up is stopped again a bounded number of times, then reported at Error every tick. Never
 * throws: a failed check must not cost the tick its idle decisions.
 */
@Injectable()
export class StopConfirmer implements TickListReader {
  constructor(private readonly deps: StopConfirmerDependencies) {}

  async read(pods: readonly PodConfig[], list: PodList, listedAt: number): Promise<void> {
    // One read per pod, all at once (pipelined): most ticks follow no stop at all.
    const followed = await Promise.all(pods.map((pod) => this.follows(pod)));
    for (const pod of pods.filter((_, i) => followed[i])) {
      try {
        const { config } = this.deps;
        await this.deps.locks.withLock(pod.name, randomUUID(), config.tuning.idlePodLockMs, 0, () =>
          this.checkPod(pod, list, listedAt),
        );
      } catch (error) {
        this.failed(pod, error);
      }
    }
  }

  private async follows(pod: PodConfig): Promise<boolean> {
    try {
      return (await this.deps.pending.all(pod.name)).length > 0;
    } catch (error) {
      this.failed(pod, error);
      return false;
    }
  }

  private failed(pod: PodConfig, error: unknown): void {
    this.deps.logger.error({ pod: pod.name, err: errorMessage(error) }, 'stop confirmation failed this tick');
  }

  private async checkPod(pod: PodConfig, list: PodList, listedAt: number): Promise<void> {
    const { config, pending, now } = this.deps;
    const entries = await pending.all(pod.name);
    if (entries.length === 0) return;
    const recent = await this.deps.actions.recent(pod.name, RECENT_ACTIONS);
    const next = new Map<string, PendingStop | null>();
    for (const entry of entries) {
      const sighting = sightingOf(list, listedAt, entry);
      const restartedAt = restartOf(recent, entry);
      const verdict = decideStopConfirmation(entry, sighting, restartedAt, config.stopConfirm, now());
      await this.act(pod, entry, sighting, verdict, list);
      next.set(entry.podId, verdict.next);
    }
    await pending.apply(pod.name, next);
  }

  private async act(
    pod: PodConfig,
    entry: PendingStop,
    sighting: StopSighting,
    verdict: StopConfirmVerdict,
    list: PodList,
  ): Promise<void> {
    const { logger, config } = this.deps;
    const listed = list.kind === 'listed' ? list.pods : [];
    const status = listed.find((p) => p.id === entry.podId)?.status ?? 'unknown status';
    const fields = { pod: pod.name, podId: entry.podId, trigger: entry.trigger, restops: entry.restops };
    const max = config.stopConfirm.maxRestops;
    switch (verdict.kind) {
      case 'confirmed':
        if (entry.confirmedAt === null)
          logger.info({ ...fields, sighting }, `stop of ${entry.podId} confirmed (${sighting})`);
        return;
      case 'waiting':
        logger.info(
          { ...fields, ticksWaited: verdict.next.ticksWaited, status },
          `stop of ${entry.podId} not confirmed yet: still ${status} (tick ${verdict.next.ticksWaited} of ${config.stopConfirm.ticks})`,
        );
        return;
      case 'restop':
        return this.restop(pod, entry, verdict.attempt, status, listed);
      case 'unconfirmed':
        logger.error(
          { ...fields, ticksWaited: verdict.next.ticksWaited, status, unconfirmedStop: true },
          `stop of ${entry.podId} still not confirmed after ${max} re-stops: ${status} ${verdict.next.ticksWaited} ticks after the last; it may still bill`,
        );
        return;
      case 'blind':
      case 'forget':
        return;
    }
  }

  private async restop(
    pod: PodConfig,
    entry: PendingStop,
    attempt: number,
    status: string,
    listed: readonly ListedPod[],
  ): Promise<void> {
    const { logger, config } = this.deps;
    const max = config.stopConfirm.maxRestops;
    const ticks = entry.ticksWaited + 1;
    logger.error(
      {
        pod: pod.name,
        podId: entry.podId,
        trigger: entry.trigger,
        attempt,
        maxRestops: max,
        ticksWaited: ticks,
        status,
        unconfirmedStop: true,
      },
      `stop of ${entry.podId} not confirmed: still ${status} ${ticks} ticks after it was accepted; ${config.idleDryRun ? 'would re-stop' : 're-stopping'} (attempt ${attempt} of ${max})`,
    );
    if (config.idleDryRun) return;
    const detail = `re-stop ${attempt} of ${max} of an unconfirmed stop: the ${entry.trigger} stop accepted at ${new Date(entry.stoppedAt).toISOString()} left the pod ${status} for ${ticks} ticks`;
    await this.deps.stops.stopPods(pod, [entry.podId], entry.trigger as ActionTrigger, listed, { detail });
  }

  /** The newest Start or Create RunPod accepted for the pod (a wake since the stop is a new run), epoch ms. */
}

/**
 * When the pod was last started or created, for one followed stop. A start after the stop's row in the
 * action log (Redis's order) counts as after it whatever the writers' clocks say, or a lagging waker's
 * restart would be re-stopped; only when the stop's row is not among the recent rows do clocks decide.
 */
function restartOf(recent: readonly ActionRecord[], entry: PendingStop): number | null {
  const start = recent.findIndex((a) => a.ok && (a.action === 'Start' || a.action === 'Create'));
  if (start < 0) return null;
  const stop = recent.findIndex((a) => a.ok && a.action === 'Stop' && a.podId === entry.podId);
  if (stop < 0) return Date.parse(recent[start].at);
  return start < stop ? entry.stoppedAt : null;
}
