import {
  idleSettings,
  idleStopAt,
  nextPrewake,
  proxyUrlFor,
  rankPods,
  reasonWithDiagnosis,
  runtimeCapAt,
  type IdleState,
  type LookupWord,
  type PodConfig,
  type PodObservation,
  type PodwardenConfig,
} from '@podwarden/policies';
import type {
  BillingSnapshot,
  LedgerFigures,
  RhythmSnapshot,
  StoredDiagnosis,
  VolumeReading,
  WakeCompletedRecord,
  WakeProgress,
} from '@podwarden/platform';
import { spendTodayView } from './spend-today-view';
import type { LastWakeDto } from './last-wake.dto';
import type { PodStatusDto, StatusWord } from './pod-status.dto';
import type { ShownVolume } from './volume-snapshots';
import type { IdleWindowDto } from './idle-window.dto';

/** What Redis said for one GET; null fields when Redis could not be read. */
export interface RecordsReading {
  readonly idle: IdleState | null;
  readonly wake: WakeProgress | null;
  readonly lastWake: WakeCompletedRecord | null;
  /** The keep-alive deadline in epoch milliseconds; null when none is set (or Redis could not be read). */
  readonly keepAlive: number | null;
  /** The daily-budget ledger's figures (account-wide); null when unreadable. Optional for older callers. */
  readonly spend?: LedgerFigures | null;
  /** The followed stops' verdict (stopConfirmedOf); null when none or unreadable. Optional for older callers. */
  readonly stopConfirmed?: boolean | null;
  /** RunPod's billing as last reconciled; null when never read or unreadable. */
  readonly billing?: BillingSnapshot | null;
  /** The pod's newest boot diagnosis; null when none or unreadable. */
  readonly diagnosis?: StoredDiagnosis | null;
  /** What the idle monitor learned and applies (adaptive pods); null when none yet or unreadable. */
  readonly rhythm?: RhythmSnapshot | null;
}

/** The window in force: a fixed pod's own; an adaptive pod's as the idle monitor last applied it. */
export function idleWindowView(pod: PodConfig, rhythm: RhythmSnapshot | null): IdleWindowDto {
  if (pod.idlePolicy !== 'adaptive') {
    return { minutes: pod.idleMinutes, policy: 'fixed', basis: `fixed window of ${pod.idleMinutes} min` };
  }
  return (
    rhythm?.inForce ?? {
      minutes: pod.idleMinutes,
      policy: 'adaptive',
      basis: `fixed window of ${pod.idleMinutes} min until the idle monitor has learned this pod's rhythm`,
    }
  );
}

/** The next planned pre-wake after `now`, from the slots learned (so it never shows one already past). */
export function nextPrewakeView(
  config: PodwardenConfig,
  pod: PodConfig,
  rhythm: RhythmSnapshot | null,
  now: number,
): string | null {
  if (pod.idlePolicy !== 'adaptive' || !config.rhythm.prewake || rhythm === null) return null;
  return isoOrNull(nextPrewake(rhythm.rhythm.prewakes, now)?.at ?? null);
}

const LOOKUP_WORDS: Readonly<Record<VolumeReading['kind'], LookupWord>> = {
  unconfigured: 'UNCONFIGURED',
  unreadable: 'UNREADABLE',
  'not-found': 'NOT_FOUND',
  found: 'FOUND',
};

function statusWord(observation: PodObservation | undefined): StatusWord {
  if (observation?.kind !== 'found' || observation.status === 'Unknown') return 'UNKNOWN';
  return observation.status.toUpperCase() as StatusWord;
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : new Date(epochMs).toISOString();
}

export function lastWakeView(
  record: WakeCompletedRecord | null,
  diagnosis: StoredDiagnosis | null = null,
): LastWakeDto | null {
  if (record === null) return null;
  return {
    attemptId: record.attemptId,
    requestedAt: record.requestedAt,
    completedAt: record.completedAt,
    outcome: record.outcome,
    wakeOutcome: record.wakeOutcome,
    reason: reasonWithDiagnosis(record.reason, record, diagnosis),
    podId: record.podId,
    gpuId: record.gpuId,
    pricePerHour: record.pricePerHour,
  };
}

/**
 * One GET answer. The reported pod is the serving one, else the one coming up,
 * else the first listed (list order is unspecified). Only RUNNING with a GPU
 * serves: proxyUrl is set whenever a pod is named, so callers check isRunning.
 */
export function podStatusBody(
  config: PodwardenConfig,
  pod: PodConfig,
  shown: ShownVolume,
  records: RecordsReading,
): Omit<PodStatusDto, 'expectedReadyAt'> {
  const { volume } = shown;
  const pods = volume.kind === 'found' ? volume.pods : [];
  const ranked = rankPods(pods);
  const observation = ranked?.observation;
  const podId = ranked?.podId ?? null;
  const window = idleWindowView(pod, records.rhythm ?? null);
  const settings = idleSettings({
    idleMinutes: window.minutes,
    checkSeconds: config.checkSeconds,
    bootGraceMinutes: pod.bootGraceMinutes,
    maxRuntimeMinutes: pod.maxRuntimeMinutes,
  });
  const idle = records.idle;
  return {
    name: pod.name,
    configured: volume.kind !== 'unconfigured',
    status: statusWord(observation),
    isRunning: observation?.kind === 'found' && observation.status === 'Running' && observation.gpuCount >= 1,
    podId,
    proxyUrl: podId === null ? null : proxyUrlFor(config.runpod.proxyUrlTemplate, podId, pod.podPort),
    podsOnVolume: pods.length,
    datacenter: pod.datacenterId,
    lookup: LOOKUP_WORDS[volume.kind],
    readySince: isoOrNull(idle?.readySince ?? null),
    wake: records.wake,
    lastWake: lastWakeView(records.lastWake, records.diagnosis ?? null),
    idleStopAt: idle === null ? null : isoOrNull(idleStopAt(idle, settings)),
    runtimeCapAt: idle === null ? null : isoOrNull(runtimeCapAt(idle, settings)),
    keepAliveUntil: isoOrNull(records.keepAlive),
    observedAt: isoOrNull(shown.observedAt),
    spendToday: spendTodayView(
      records.spend ?? null,
      config.dailyBudgetUsd,
      Date.now(),
      records.billing ?? null,
    ),
    stopConfirmed: records.stopConfirmed ?? null,
    idleWindow: window,
    nextPrewakeAt: nextPrewakeView(config, pod, records.rhythm ?? null, Date.now()),
  };
}
