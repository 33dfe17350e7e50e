import {
  afterStop,
  nextBaselines,
  stopTargets,
  type BaselineBook,
  type IdleState,
  type ListedPod,
  type PodConfig,
  type PodSignal,
  type PodSignalOf,
  type StopReason,
} from '@podwarden/policies';
import type { AppLogger, StopService } from '@podwarden/platform';

export interface IdleStopRequest {
  readonly pod: PodConfig;
  readonly reason: StopReason;
  /** Every pod read this tick, with its signal: the targets are those observed up. */
  readonly perPod: readonly PodSignalOf[];
  /**
   * The pods seen up this tick, where a failed per-pod read falls back to the
   * list's status and a failed list to the pods last seen up: the cap's targets,
   * so a cap due on a blind tick still stops what bills.
   */
  readonly seenUp: readonly string[];
  /** The volume's signal this tick, for the log line. */
  readonly signal: PodSignal;
  readonly listed: readonly ListedPod[];
  readonly podsOnVolume: readonly string[];
  readonly state: IdleState;
  readonly baselines: BaselineBook;
  readonly now: number;
}

export interface IdleStopResult {
  readonly state: IdleState;
  readonly baselines: BaselineBook;
  /** null when nothing was asked of RunPod (dry run). */
  readonly stopAccepted: boolean | null;
  /** The pods the stop was for (or, in dry run, would have been). */
  readonly targets: readonly string[];
}

export interface IdleStopDependencies {
  readonly stops: Pick<StopService, 'stopPods'>;
  readonly logger: AppLogger;
  readonly dryRun: boolean;
}

/** Carries out a stop the phase machine asked for, or in dry run only says it would. */
export async function applyIdleStop(
  deps: IdleStopDependencies,
  request: IdleStopRequest,
): Promise<IdleStopResult> {
  const { pod, reason, state, now } = request;
  const targets = reason === 'runtime-cap' ? [...request.seenUp] : stopTargets(request.perPod);
  if (deps.dryRun) {
    for (const target of targets)
      deps.logger.warn(
        { pod: pod.name, podId: target, reason, dryRun: true },
        `would stop ${target} (${reason})`,
      );
    // Nothing was stopped: restart the window that fired so the line repeats once per window,
    // not on every tick (the cap's clock is restarted too, for the same reason).
    const restarted =
      reason === 'runtime-cap' ? { ...state, upSince: now } : afterStop(state, reason, false, now);
    return { state: restarted, baselines: request.baselines, stopAccepted: null, targets };
  }
  deps.logger.info(
    { pod: pod.name, targets, reason, signal: request.signal },
    `stopping ${targets.join(', ')} (${reason})`,
  );
  const outcomes = await deps.stops.stopPods(pod, targets, reason, request.listed);
  const accepted = outcomes.length > 0 && outcomes.every((o) => o.ok);
  // An accepted stop ends the process behind each id: its counters restart at zero.
  const ended = outcomes
    .filter((o) => o.ok)
    .map((o) => ({ podId: o.podId, event: { kind: 'ended' as const } }));
  return {
    state: afterStop(state, reason, accepted, now),
    baselines: nextBaselines(request.baselines, request.podsOnVolume, ended),
    stopAccepted: accepted,
    targets,
  };
}
