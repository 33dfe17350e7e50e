import { readyAfterMs, type IdleAdvance, type PodConfig, type VolumeSignal } from '@podwarden/policies';
import type { AppLogger, IdleRecord } from '@podwarden/platform';
import { formatDuration } from './format-duration';
import type { PodReading } from './volume-observation';

/** Two pods on one volume may both be billing (a stale pod and its replacement): worth a warning every tick. */
export function warnManyPods(logger: AppLogger, pod: PodConfig, readings: readonly PodReading[]): void {
  if (readings.length <= 1) return;
  logger.warn(
    { pod: pod.name, podIds: readings.map((r) => r.podId), signals: readings.map((r) => r.signal) },
    `${readings.length} pods on volume ${pod.volumeId}; a stale pod and its replacement may both be billing`,
  );
}

/** "ready after" once per boot, and a restart the monitor did not cause. */
export function logReadiness(
  logger: AppLogger,
  pod: PodConfig,
  advance: IdleAdvance,
  podId: string | null,
): void {
  if (advance.becameReady) {
    const elapsed = readyAfterMs(advance.state);
    logger.info(
      { pod: pod.name, podId, readyAfterMs: elapsed, bootGraceMinutes: pod.bootGraceMinutes },
      `[idle-monitor] pod ${podId} ready after ${formatDuration(elapsed)} (boot grace ${formatDuration(pod.bootGraceMinutes * 60_000)})`,
    );
  }
  if (advance.startupAfterReady) {
    logger.info({ pod: pod.name, podId }, `pod ${podId} is starting again; readiness cleared`);
  }
}

/**
 * The one debug line per pod per tick ('idle tick'): what was observed and
 * what was left behind. When a stop fired it also carries the counters that
 * fired it, before the stop reset them. The end-to-end specs read this line.
 */
export function logTick(
  logger: AppLogger,
  tick: {
    readonly pod: PodConfig;
    readonly tickId: string;
    readonly aggregate: VolumeSignal;
    readonly advance: IdleAdvance;
    readonly record: IdleRecord;
    readonly stopAccepted: boolean | null;
  },
): void {
  const { advance, record } = tick;
  logger.debug(
    {
      pod: tick.pod.name,
      tickId: tick.tickId,
      signal: tick.aggregate.signal,
      phase: record.state.phase,
      idleStreak: record.state.idleStreak,
      bootingTicks: record.state.bootingTicks,
      ...(advance.stop
        ? {
            stop: advance.stop,
            stopAccepted: tick.stopAccepted,
            streakAtStop: advance.state.idleStreak,
            bootingTicksAtStop: advance.state.bootingTicks,
          }
        : {}),
    },
    'idle tick',
  );
}
