import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  advanceIdle,
  idleEventsOf,
  downReasonOf,
  type DownReason,
  isPodConfigured,
  type IdleState,
  type ListedPod,
  type PodConfig,
  type StopReason,
} from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import type { AppLogger, HeldIdleLock, IdleRecord } from '@podwarden/platform';
import { settleRun } from './budget-settlement';
import { errorPodsDue } from './error-pod-stop';
import { stopStuckPods } from './stuck-pods';
import { applyIdleStop, type IdleStopResult } from './idle-stop';
import { holdForKeepAlive } from './keep-alive-reading';
import { logReadiness, logTick } from './tick-log';
import { fanOutTick } from './tick-fan-out';
import { readyEdgeOf } from './tick-status-effects';
import { listedOf, observeTick, withProxyTraffic, type TickObservation } from './tick-observation';
import { alreadyCounted, type TickContext } from './tick-context';
import { withEarlyStop } from '../diagnosis/early-stop';
import { settingsOf } from './pod-idle-settings';
import type { TickRhythm } from '../rhythm/rhythm-keeper';
import { IdleTickDependencies } from './idle-tick-dependencies';

export type PodTickOutcome =
  | { kind: 'skipped'; why: 'unconfigured' | 'busy' | 'already-ticked' | 'lock-lost' }
  | { kind: 'advanced'; record: IdleRecord; stop: StopReason | null; stopAccepted: boolean | null };

const UNCONFIGURED: PodTickOutcome = { kind: 'skipped', why: 'unconfigured' };

/**
 * One idle tick: one control-plane list serves every configured pod, each then evaluated under its own
 * lock, so one pod's ticks never overlap across replicas and a re-run after a stall does not count twice.
 */
@Injectable()
export class IdleTickService {
  constructor(private readonly deps: IdleTickDependencies) {}

  async run(
    tickId: string,
    scheduledAt: number | null = null,
    signal?: AbortSignal,
  ): Promise<Map<string, PodTickOutcome>> {
    const { config, client } = this.deps;
    const pods = config.pods.filter((pod) => isPodConfigured(config, pod));
    const tick: TickContext = { tickId, scheduledAt, signal, tickets: await this.deps.status.begin(pods) };
    let evaluated = new Map<PodConfig, PodTickOutcome>();
    if (pods.length > 0) {
      const listedAt = this.deps.now();
      const list = await client.listPods(signal);
      // The same list serves the orphan sweep (pods of ours no configured volume holds) and the readers.
      if (list.kind === 'listed') await this.deps.orphans.sweep(list.pods, signal);
      for (const reader of this.deps.listReaders) await reader.read(pods, list, listedAt);
      evaluated = await fanOutTick(pods, list, config.tuning, (pod) => this.tickPod(pod, list, tick));
    }
    // In config order; a pod without a volume (or every pod, without an API key) is not looked at.
    return new Map(config.pods.map((pod) => [pod.name, evaluated.get(pod) ?? UNCONFIGURED]));
  }

  private async tickPod(pod: PodConfig, list: PodList, tick: TickContext): Promise<PodTickOutcome> {
    const { store, logger, config } = this.deps;
    const locked = await store.withLock(pod.name, randomUUID(), config.tuning.idlePodLockMs, 0, (lock) =>
      this.evaluate(pod, list, tick, lock),
    );
    if (!locked.ran) {
      logger.info(
        { pod: pod.name, tickId: tick.tickId },
        'previous tick for this pod still running; skipping',
      );
      return { kind: 'skipped', why: 'busy' };
    }
    return locked.value;
  }

  private async evaluate(
    pod: PodConfig,
    list: PodList,
    tick: TickContext,
    lock: HeldIdleLock,
  ): Promise<PodTickOutcome> {
    const { logger, config } = this.deps;
    const record = await this.deps.store.load(pod.name);
    if (alreadyCounted(record, tick)) return { kind: 'skipped', why: 'already-ticked' };

    const seen = await withProxyTraffic(
      this.deps,
      pod,
      record,
      await observeTick(this.deps, pod, list, record, tick),
    );
    const now = this.deps.now();
    const rhythm: TickRhythm | null = await this.deps.rhythm.windowFor(pod, now);
    const settings = settingsOf(config, pod, rhythm?.minutes);
    const advance = await holdForKeepAlive(
      this.deps.keepAlives,
      pod.name,
      advanceIdle(record.state, seen.aggregate.signal, now, settings),
      now,
      { timeoutMs: config.tuning.redisReadTimeoutMs, logger },
    );
    logReadiness(logger, pod, advance, seen.aggregate.podId);
    const ready = readyEdgeOf(advance, seen.aggregate.podId, listedOf(list));
    const wake = ready === null ? null : await this.deps.status.becameReady(pod, ready);

    const stopReason = await withEarlyStop(this.deps.boots, advance.stop, {
      ...{ pod, state: advance.state, perPod: seen.perPod, listed: listedOf(list), signal: tick.signal },
    });
    // A tick that lost its lock leaves the pod to the newer holder: no stop, no write. Redis is
    // asked before a stop; otherwise the renewals' verdict will do, as the write is fenced anyway.
    const stopping = stopReason !== null || errorPodsDue(pod, seen.errorSince, now);
    if (stopping ? !(await lock.stillHeld()) : lock.lost) return this.lockLost(pod, tick);
    tick.signal?.throwIfAborted();
    const after: IdleStopResult = stopReason
      ? await this.stop(pod, stopReason, advance.state, seen, listedOf(list), now)
      : { state: advance.state, baselines: seen.baselines, stopAccepted: null, targets: [] };
    const stuck = await stopStuckPods(this.stopDeps(), {
      pod,
      seen,
      listed: listedOf(list),
      now,
      phaseStop: { fired: stopReason !== null, targets: after.targets },
    });
    const next: IdleRecord = {
      state: after.state,
      baselines: after.baselines,
      updatedAt: now,
      lastTickId: tick.tickId,
      lastTickScheduledAt: tick.scheduledAt ?? record.lastTickScheduledAt ?? null,
      // An accepted stop is the Down edge: nothing is up any more as far as the cap is concerned.
      seenUp: after.stopAccepted === true ? [] : seen.seenUp,
      ...stuck,
    };
    if (!(await lock.save(next))) return this.lockLost(pod, tick);
    if (after.stopAccepted === true || seen.aggregate.signal === 'NotRunning') {
      await settleRun(this.deps.ledger, logger, pod, record.state.upSince, now);
    }
    const { stopAccepted } = after;
    if (rhythm !== null) {
      await this.deps.rhythm.afterTick(pod, rhythm, {
        now,
        before: record.state,
        after: next.state,
        scraped: seen.scraped ?? seen.aggregate.signal,
        signal: seen.aggregate.signal,
        proxy: seen.proxy ?? null,
        ready: ready === null ? null : { ...ready, wake },
        stop: stopReason,
        stopAccepted,
      });
    }
    await this.announce(pod, record.state, next.state, stopReason, settings.requiredIdleStreak);
    logTick(logger, {
      pod,
      tickId: tick.tickId,
      aggregate: seen.aggregate,
      advance,
      record: next,
      stopAccepted,
    });
    return { kind: 'advanced', record: next, stop: stopReason, stopAccepted };
  }

  private stop(
    pod: PodConfig,
    reason: StopReason,
    state: IdleState,
    seen: TickObservation,
    listed: readonly ListedPod[],
    now: number,
  ): Promise<IdleStopResult> {
    const { perPod, podsOnVolume, baselines, seenUp } = seen;
    return applyIdleStop(this.stopDeps(), {
      pod,
      reason,
      perPod,
      seenUp,
      signal: seen.aggregate.signal,
      listed,
      podsOnVolume,
      state,
      baselines,
      now,
    });
  }

  /** Publishing never throws (the publisher logs), so the tick's outcome stands whatever Redis says. */
  private async announce(
    pod: PodConfig,
    before: IdleState,
    after: IdleState,
    stop: StopReason | null,
    required: number,
  ): Promise<void> {
    const { events } = this.deps;
    const reason =
      before.phase !== 'Down' && after.phase === 'Down' ? await this.downReason(pod, stop) : null;
    for (const event of idleEventsOf(before, after, required, reason)) {
      await events.publish(pod.name, event.type, event.data);
    }
  }

  /** Read only on a Down edge; an unreadable list leaves the reason the tick's own. */
  private async downReason(pod: PodConfig, stop: StopReason | null): Promise<DownReason | null> {
    if (stop !== null) return stop;
    const pending = await this.deps.pendingStops.all(pod.name).catch(() => []);
    return downReasonOf(stop, pending);
  }

  private stopDeps(): { stops: IdleTickDependencies['stops']; logger: AppLogger; dryRun: boolean } {
    return { stops: this.deps.stops, logger: this.deps.logger, dryRun: this.deps.config.idleDryRun };
  }

  private lockLost(pod: PodConfig, tick: TickContext): PodTickOutcome {
    this.deps.logger.warn(
      { pod: pod.name, tickId: tick.tickId },
      "lost this pod's idle lock during the tick (its lease lapsed); the state is left to the newer holder",
    );
    return { kind: 'skipped', why: 'lock-lost' };
  }
}
