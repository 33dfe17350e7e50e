import { randomUUID } from 'node:crypto';
import {
  advanceIdle,
  afterStop,
  aggregateSignals,
  applyKeepAlive,
  idleSettings,
  isPodConfigured,
  nextBaselines,
  readyAfterMs,
  stopTargets,
  type IdleAdvance,
  type PodConfig,
  type PodwardenConfig,
  type StopReason,
} from '@podwarden/policies';
import { lookupVolume } from '@podwarden/policies';
import type { PodList } from '@podwarden/runpod-client';
import {
  mapBounded,
  type AppLogger,
  type IdleRecord,
  type IdleStateStore,
  type StopService,
} from '@podwarden/platform';
import { readKeepAlive, type KeepAliveReader } from './keep-alive-reading';
import { observeVolume, type IdleControlPlane } from './volume-observation';

const DEFAULT_KEEP_ALIVE_READ_TIMEOUT_MS = 1_000;

export interface IdleTickDependencies {
  readonly config: PodwardenConfig;
  readonly client: IdleControlPlane;
  readonly store: IdleStateStore;
  readonly stops: Pick<StopService, 'stopPods'>;
  /** Operators' keep-alives: they hold off the idle stop only. */
  readonly keepAlives: KeepAliveReader;
  /** How long a tick waits for the keep-alive before going on without it (default 1 s). */
  readonly keepAliveReadTimeoutMs?: number;
  readonly logger: AppLogger;
  readonly now: () => number;
  /** Pods evaluated at once, and pods of one volume scraped at once. */
  readonly concurrency: number;
}

export type PodTickOutcome =
  | { kind: 'skipped'; why: 'unconfigured' | 'busy' | 'already-ticked' }
  | { kind: 'advanced'; record: IdleRecord; stop: StopReason | null; stopAccepted: boolean | null };

/**
 * One idle tick: a single control-plane list serves every configured pod;
 * each pod is then evaluated under its own lock, so ticks of one pod never
 * overlap, whichever replica holds them, and a re-run of the same tick after
 * a stall does not count twice.
 */
export class IdleTick {
  constructor(private readonly deps: IdleTickDependencies) {}

  async run(tickId: string, scheduledAt: number | null = null): Promise<Map<string, PodTickOutcome>> {
    const { config, client } = this.deps;
    const pods = config.pods.filter((pod) => isPodConfigured(config, pod));
    const outcomes = new Map<string, PodTickOutcome>();
    for (const pod of config.pods)
      if (!pods.includes(pod)) outcomes.set(pod.name, { kind: 'skipped', why: 'unconfigured' });
    if (pods.length === 0) return outcomes;
    const list = await client.listPods();
    const results = await mapBounded(pods, this.deps.concurrency, (pod) =>
      this.tickPod(pod, list, tickId, scheduledAt),
    );
    pods.forEach((pod, i) => outcomes.set(pod.name, results[i]));
    return outcomes;
  }

  private async tickPod(
    pod: PodConfig,
    list: PodList,
    tickId: string,
    scheduledAt: number | null,
  ): Promise<PodTickOutcome> {
    const leaseMs = 5_000;
    const locked = await this.deps.store.withLock(pod.name, randomUUID(), leaseMs, 0, () =>
      this.evaluate(pod, list, tickId, scheduledAt),
    );
    if (!locked.ran) {
      this.deps.logger.info({ pod: pod.name, tickId }, 'previous tick for this pod still running; skipping');
      return { kind: 'skipped', why: 'busy' };
    }
    return locked.value;
  }

  private async evaluate(
    pod: PodConfig,
    list: PodList,
    tickId: string,
    scheduledAt: number | null,
  ): Promise<PodTickOutcome> {
    const { store, logger, config } = this.deps;
    const record = await store.load(pod.name);
    if (record.lastTickId === tickId) return { kind: 'skipped', why: 'already-ticked' };
    const lastScheduled = record.lastTickScheduledAt ?? null;
    if (scheduledAt !== null && lastScheduled !== null && scheduledAt <= lastScheduled) {
      // A stalled tick re-delivered after newer ones ran: its observation is stale and was counted or superseded.
      return { kind: 'skipped', why: 'already-ticked' };
    }

    const settings = idleSettings({
      idleMinutes: pod.idleMinutes,
      checkSeconds: config.checkSeconds,
      bootGraceMinutes: pod.bootGraceMinutes,
      maxRuntimeMinutes: pod.maxRuntimeMinutes,
    });
    const lookup = lookupVolume(list, pod.volumeId);
    const seen = await observeVolume(this.deps.client, pod, lookup, record.baselines, this.deps.concurrency);
    if (seen.readings.length > 1) {
      logger.warn(
        {
          pod: pod.name,
          podIds: seen.readings.map((r) => r.podId),
          signals: seen.readings.map((r) => r.signal),
        },
        `${seen.readings.length} pods on volume ${pod.volumeId}; a stale pod and its replacement may both be billing`,
      );
    }
    const podsOnVolume = lookup.kind === 'found' ? lookup.podIds : [];
    let baselines =
      lookup.kind === 'unreadable'
        ? record.baselines
        : nextBaselines(record.baselines, podsOnVolume, seen.baselineUpdates);
    const perPod = seen.readings.map((r) => ({ podId: r.podId, signal: r.signal }));
    const aggregate = aggregateSignals(lookup, perPod);
    const now = this.deps.now();
    const advance = await this.withKeepAlive(
      pod,
      advanceIdle(record.state, aggregate.signal, now, settings),
      now,
    );
    let state = advance.state;

    if (advance.becameReady) {
      const elapsed = readyAfterMs(state);
      logger.info(
        {
          pod: pod.name,
          podId: aggregate.podId,
          readyAfterMs: elapsed,
          bootGraceMinutes: pod.bootGraceMinutes,
        },
        `[idle-monitor] pod ${aggregate.podId} ready after ${formatDuration(elapsed)} (boot grace ${formatDuration(pod.bootGraceMinutes * 60_000)})`,
      );
    }
    if (advance.startupAfterReady) {
      logger.info(
        { pod: pod.name, podId: aggregate.podId },
        `pod ${aggregate.podId} is starting again; readiness cleared`,
      );
    }

    let stopAccepted: boolean | null = null;
    if (advance.stop) {
      const targets = stopTargets(perPod);
      const reason = advance.stop;
      if (config.idleDryRun) {
        for (const target of targets)
          logger.warn(
            { pod: pod.name, podId: target, reason, dryRun: true },
            `would stop ${target} (${reason})`,
          );
        // Nothing was stopped: restart the window that fired so the line repeats once per window,
        // not on every tick (the cap's clock is restarted too, for the same reason).
        state = reason === 'runtime-cap' ? { ...state, upSince: now } : afterStop(state, reason, false, now);
      } else {
        logger.info(
          { pod: pod.name, targets, reason, signal: aggregate.signal },
          `stopping ${targets.join(', ')} (${reason})`,
        );
        const listed = list.kind === 'listed' ? list.pods : [];
        const outcomes = await this.deps.stops.stopPods(pod, targets, reason, listed);
        stopAccepted = outcomes.length > 0 && outcomes.every((o) => o.ok);
        state = afterStop(state, reason, stopAccepted, now);
        // An accepted stop ends the process behind each id: its counters restart at zero.
        baselines = nextBaselines(
          baselines,
          podsOnVolume,
          outcomes.filter((o) => o.ok).map((o) => ({ podId: o.podId, event: { kind: 'ended' as const } })),
        );
      }
    }

    const next: IdleRecord = {
      state,
      baselines,
      updatedAt: now,
      lastTickId: tickId,
      lastTickScheduledAt: scheduledAt ?? lastScheduled,
    };
    await store.save(pod.name, next);
    logger.debug(
      {
        pod: pod.name,
        tickId,
        signal: aggregate.signal,
        phase: state.phase,
        idleStreak: state.idleStreak,
        bootingTicks: state.bootingTicks,
        // The counters that fired, before the stop reset them.
        ...(advance.stop
          ? {
              stop: advance.stop,
              stopAccepted,
              streakAtStop: advance.state.idleStreak,
              bootingTicksAtStop: advance.state.bootingTicks,
            }
          : {}),
      },
      'idle tick',
    );
    return { kind: 'advanced', record: next, stop: advance.stop, stopAccepted };
  }

  /**
   * Read only when the tick asks for an idle stop, the one stop a keep-alive
   * can hold off: boot grace and the runtime cap never wait for Redis.
   */
  private async withKeepAlive(pod: PodConfig, advance: IdleAdvance, now: number): Promise<IdleAdvance> {
    if (advance.stop !== 'idle') return advance;
    const { keepAlives, keepAliveReadTimeoutMs, logger } = this.deps;
    const until = await readKeepAlive(
      keepAlives,
      pod.name,
      keepAliveReadTimeoutMs ?? DEFAULT_KEEP_ALIVE_READ_TIMEOUT_MS,
      logger,
    );
    const held = applyKeepAlive(advance, until, now);
    if (held.stop === null && until !== null) {
      const iso = new Date(until).toISOString();
      logger.info(
        { pod: pod.name, keepAliveUntil: iso, idleStreak: advance.state.idleStreak },
        `idle stop held off by keep-alive until ${iso}`,
      );
    }
    return held;
  }
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return 'unknown';
  const totalSeconds = Math.round(ms / 1000);
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return minutes > 0 ? `${minutes}m${String(seconds).padStart(2, '0')}s` : `${seconds}s`;
}
