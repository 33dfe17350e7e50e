import { randomUUID } from 'node:crypto';
import {
  advanceIdle,
  idleEventsOf,
  idleSettings,
  isPodConfigured,
  type IdleSettings,
  type IdleState,
  type ListedPod,
  type PodConfig,
  type PodwardenConfig,
  type StopReason,
} from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import {
  type AppLogger,
  type BudgetLedger,
  type HeldIdleLock,
  type IdleRecord,
  type IdleStateStore,
  type ProxyActivityStore,
  type PodEventSink,
  type StopService,
} from '@podwarden/platform';
import { settleRun } from './budget-settlement';
import { stopNeverRan } from './never-ran-stop';
import type { OrphanReaper } from './orphan-reaper';
import { applyIdleStop, type IdleStopResult } from './idle-stop';
import { holdForKeepAlive, type KeepAliveReader } from './keep-alive-reading';
import { logReadiness, logTick } from './tick-log';
import type { IdleControlPlane } from './volume-observation';
import type { TickStatusEffects } from './tick-status-effects';
import { fanOutTick } from './tick-fan-out';
import { listedOf, observeTick, withProxyTraffic, type TickObservation } from './tick-observation';
import { alreadyCounted, type TickContext } from './tick-context';

export interface IdleTickDependencies {
  /** Also the tick's tuning: pods evaluated at once, the per-pod lock lease, the keep-alive read timeout. */
  readonly config: PodwardenConfig;
  readonly client: IdleControlPlane;
  readonly store: IdleStateStore;
  readonly stops: Pick<StopService, 'stopPods'>;
  /** Operators' keep-alives: they hold off the idle stop only. */
  readonly keepAlives: KeepAliveReader;
  /** The inference proxies' traffic: a request in flight through any replica reads Busy. */
  readonly proxyActivity: Pick<ProxyActivityStore, 'read'>;
  readonly logger: AppLogger;
  readonly now: () => number;
  /** The status snapshot and time-to-ready, published from what the tick read; none in most specs. */
  readonly status?: TickStatusEffects;
  /** Phase edges and idle-streak changes, for the gateway's event stream. */
  readonly events?: PodEventSink;
  /** The daily-budget ledger: a run is settled when its volume is seen down or a stop is accepted. */
  readonly ledger?: Pick<BudgetLedger, 'settle'>;
  /** Terminates prefixed pods on no configured volume, from the tick's own list. */
  readonly orphans?: Pick<OrphanReaper, 'sweep'>;
  /** Read the same list after the sweep: confirmed stops (StopConfirmer), the billing census (CostMetrics). */
  readonly listReaders?: readonly TickListReader[];
}

/** Reads the tick's one account-wide list (`listedAt`: just before it was asked for). Must not throw. */
export interface TickListReader {
  read(pods: readonly PodConfig[], list: PodList, listedAt: number): Promise<void>;
}

export type PodTickOutcome =
  | { kind: 'skipped'; why: 'unconfigured' | 'busy' | 'already-ticked' | 'lock-lost' }
  | { kind: 'advanced'; record: IdleRecord; stop: StopReason | null; stopAccepted: boolean | null };

const UNCONFIGURED: PodTickOutcome = { kind: 'skipped', why: 'unconfigured' };

/**
 * One idle tick: a single control-plane list serves every configured pod;
 * each pod is then evaluated under its own lock, so ticks of one pod never
 * overlap, whichever replica holds them, and a re-run of the same tick after
 * a stall does not count twice.
 */
export class IdleTickService {
  constructor(private readonly deps: IdleTickDependencies) {}

  async run(
    tickId: string,
    scheduledAt: number | null = null,
    signal?: AbortSignal,
  ): Promise<Map<string, PodTickOutcome>> {
    const { config, client } = this.deps;
    const pods = config.pods.filter((pod) => isPodConfigured(config, pod));
    const tick: TickContext = { tickId, scheduledAt, signal, tickets: await this.deps.status?.begin(pods) };
    let evaluated = new Map<PodConfig, PodTickOutcome>();
    if (pods.length > 0) {
      const listedAt = this.deps.now();
      const list = await client.listPods(signal);
      // The same list serves the orphan sweep (pods of ours no configured volume holds) and the readers.
      if (list.kind === 'listed') await this.deps.orphans?.sweep(list.pods, signal);
      for (const reader of this.deps.listReaders ?? []) await reader.read(pods, list, listedAt);
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
    const advance = await holdForKeepAlive(
      this.deps.keepAlives,
      pod.name,
      advanceIdle(record.state, seen.aggregate.signal, now, settingsOf(config, pod)),
      now,
      { timeoutMs: config.tuning.redisReadTimeoutMs, logger },
    );
    logReadiness(logger, pod, advance, seen.aggregate.podId);
    if (advance.becameReady && advance.state.readySince !== null) {
      const podId = seen.aggregate.podId;
      const listed = listedOf(list).find((entry) => entry.id === podId);
      const placement = { gpuId: listed?.gpuId ?? null, pricePerHour: listed?.costPerHr ?? null };
      await this.deps.status?.becameReady(pod, { podId, at: advance.state.readySince, ...placement });
    }

    // A tick that lost its lock leaves the pod to the newer holder: no stop, no write. Redis is
    // asked before a stop; otherwise the renewals' verdict will do, as the write is fenced anyway.
    if (advance.stop !== null ? !(await lock.stillHeld()) : lock.lost) return this.lockLost(pod, tick);
    tick.signal?.throwIfAborted();
    const after: IdleStopResult = advance.stop
      ? await this.stop(pod, advance.stop, advance.state, seen, listedOf(list), now)
      : { state: advance.state, baselines: seen.baselines, stopAccepted: null };
    const neverRanSince = await stopNeverRan(this.stopDeps(), {
      pod,
      clocks: seen.neverRanSince,
      alreadyStopped: advance.stop === null ? [] : seen.perPod.map((p) => p.podId),
      listed: listedOf(list),
      now,
    });
    const next: IdleRecord = {
      state: after.state,
      baselines: after.baselines,
      updatedAt: now,
      lastTickId: tick.tickId,
      lastTickScheduledAt: tick.scheduledAt ?? record.lastTickScheduledAt ?? null,
      // An accepted stop is the Down edge: nothing is up any more as far as the cap is concerned.
      seenUp: after.stopAccepted === true ? [] : seen.seenUp,
      neverRanSince,
    };
    if (!(await lock.save(next))) return this.lockLost(pod, tick);
    if (after.stopAccepted === true || seen.aggregate.signal === 'NotRunning') {
      await settleRun(this.deps.ledger, logger, pod, record.state.upSince, now);
    }
    const { stopAccepted } = after;
    await this.announce(pod, record.state, next.state, advance.stop);
    logTick(logger, {
      pod,
      tickId: tick.tickId,
      aggregate: seen.aggregate,
      advance,
      record: next,
      stopAccepted,
    });
    return { kind: 'advanced', record: next, stop: advance.stop, stopAccepted };
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
  ): Promise<void> {
    const { events, config } = this.deps;
    if (events === undefined) return;
    const required = settingsOf(config, pod).requiredIdleStreak;
    for (const event of idleEventsOf(before, after, required, stop)) {
      await events.publish(pod.name, event.type, event.data);
    }
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

function settingsOf(config: PodwardenConfig, pod: PodConfig): IdleSettings {
  return idleSettings({
    idleMinutes: pod.idleMinutes,
    checkSeconds: config.checkSeconds,
    bootGraceMinutes: pod.bootGraceMinutes,
    maxRuntimeMinutes: pod.maxRuntimeMinutes,
  });
}
