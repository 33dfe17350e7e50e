import { advanceIdle, afterStop, idleSettings, INITIAL_IDLE_STATE, type IdleState } from '../idle/idle-phase';
import type { PodSignal } from '../idle/pod-signal';
import type { IdlePolicyName } from '../config/config-types';
import {
  learnRhythm,
  rhythmDue,
  windowInForce,
  type LearnedMark,
  type PodRhythm,
  type RhythmSettings,
} from './pod-rhythm';
import { nextPrewake, type PrewakeSlot } from './prewake-plan';
import type { UsageTrace } from './usage-trace';
import type { Boot, Use } from './usage-record';
import { dayStartOf } from './utc-days';

export interface ReplaySettings extends Omit<RhythmSettings, 'policy' | 'fallbackPricePerHour'> {
  readonly bootGraceMinutes: number;
  readonly maxRuntimeMinutes: number;
}

/** One policy's replay, as the contract's what-if output lists it. */
export interface PolicyReplay {
  readonly policy: IdlePolicyName;
  readonly billedMinutes: number;
  readonly costUsd: number;
  readonly coldStarts: number;
  readonly waitMinutes: number;
  readonly stopsDuringUse: number;
  readonly prewakes: number;
  /** Pre-wakes a request met before the pod stopped again. */
  readonly prewakeHits: number;
  readonly windowMinutes: { readonly min: number; readonly median: number; readonly max: number };
  /** When the pod was stopped (epoch ms) and which guard stopped it, for comparing with a live run. */
  readonly stops: readonly { readonly at: number; readonly reason: string }[];
}

const MINUTE_MS = 60_000;

interface Served {
  readonly arrivedAt: number;
  readonly start: number;
  readonly end: number;
}

interface UpPod {
  readonly wakeAt: number;
  readonly readyAt: number;
  readonly prewokeFor: PrewakeSlot | null;
  used: boolean;
}

/**
 * Replays a trace in simulated time through the idle monitor's own decisions (signal, phase machine,
 * rhythm window, pre-wake plan), so what-if answers what the monitor would do. A request that meets a
 * stopped pod wakes it and waits for the boot.
 */
export function replayTrace(
  trace: UsageTrace,
  policy: IdlePolicyName,
  settings: ReplaySettings,
): PolicyReplay {
  const requests = trace.requests
    .map((request) => ({ at: Date.parse(request.at), ms: request.seconds * 1000 }))
    .sort((a, b) => a.at - b.at);
  const rhythmSettings: RhythmSettings = { ...settings, policy, fallbackPricePerHour: trace.pricePerHour };
  const tickMs = settings.checkSeconds * 1000;
  const bootMs = trace.bootMinutes * MINUTE_MS;
  const uses: Use[] = [];
  const boots: Boot[] = [];
  const served: Served[] = [];
  const stops: { at: number; reason: string }[] = [];
  const windows: number[] = [];
  const prewakesPerDay = new Map<number, number>();
  let pod: UpPod | null = null;
  let idle: IdleState = INITIAL_IDLE_STATE;
  let rhythm: PodRhythm | null = null;
  let learned: LearnedMark | null = null;
  let billedMs = 0;
  let coldStarts = 0;
  let waitMs = 0;
  let stopsDuringUse = 0;
  let prewakes = 0;
  let prewakeHits = 0;
  let next = 0;
  if (requests.length === 0) return summary();

  const first = Math.floor(requests[0].at / tickMs) * tickMs;
  const lastEnd = requests[requests.length - 1].at + bootMs + Math.max(...requests.map((r) => r.ms));
  // Bounded: the trace's span plus a day beyond the longest a pod can stay up after it (cap or window).
  const upMinutes = Math.max(settings.maxRuntimeMinutes, settings.idleMinutes, settings.maxMinutes);
  const horizon = lastEnd + (upMinutes + 24 * 60) * MINUTE_MS;
  for (let now = first; now <= horizon; now += tickMs) {
    while (next < requests.length && requests[next].at <= now) arrive(requests[next++]);
    tick(now);
    if (next >= requests.length && pod === null && now >= lastEnd) break;
  }
  // A pod still up at the horizon (a pre-wake late in it) bills to it: a what-if never reads low.
  const stillUp = pod as UpPod | null;
  if (stillUp !== null) billedMs += horizon - stillUp.wakeAt;
  return summary();

  function rhythmAsOf(now: number): PodRhythm {
    if (rhythm === null || rhythmDue(learned, now, uses.length)) {
      rhythm = learnRhythm(rhythmSettings, { uses, boots, stops: [] }, now);
      learned = { at: now, uses: uses.length };
    }
    return rhythm;
  }

  function wake(at: number, prewokeFor: PrewakeSlot | null): UpPod {
    const up = { wakeAt: at, readyAt: at + bootMs, prewokeFor, used: false };
    boots.push({
      wakeAt: at,
      readyAt: at + bootMs,
      gpuId: null,
      pricePerHour: trace.pricePerHour,
      prewake: !!prewokeFor,
    });
    return up;
  }

  function arrive(request: { at: number; ms: number }): void {
    if (pod === null) {
      coldStarts += 1;
      pod = wake(request.at, null);
    }
    if (pod.prewokeFor !== null && !pod.used) prewakeHits += 1;
    pod.used = true;
    const start = Math.max(request.at, pod.readyAt);
    waitMs += start - request.at;
    served.push({ arrivedAt: request.at, start, end: start + request.ms });
    uses.push({ start: request.at, end: start + request.ms });
  }

  function signalAt(now: number): PodSignal {
    if (pod === null) return 'NotRunning';
    if (now < pod.readyAt) return 'Booting';
    // Work during the last tick interval (or still running) moves vLLM's counters: Busy.
    const busy = served.some((s) => s.start <= now && s.end > now - tickMs);
    return busy ? 'Busy' : 'Idle';
  }

  function tick(now: number): void {
    const current = rhythmAsOf(now);
    const up = pod;
    const minutes =
      up === null
        ? current.window.minutes
        : windowInForce(current, up.prewokeFor, up.used, settings.minMinutes);
    const advanced = advanceIdle(
      idle,
      signalAt(now),
      now,
      idleSettings({ ...settings, idleMinutes: minutes }),
    );
    idle = advanced.state;
    if (idle.phase === 'Ready') windows.push(minutes);
    if (advanced.stop !== null && up !== null) {
      if (served.some((s) => s.arrivedAt <= now && s.end > now)) stopsDuringUse += 1;
      billedMs += now - up.wakeAt;
      stops.push({ at: now, reason: advanced.stop });
      idle = afterStop(idle, advanced.stop, true, now);
      pod = null;
    }
    while (served.length > 0 && served[0].end <= now - tickMs) served.shift();
    if (pod === null && policy === 'adaptive' && settings.prewake) maybePrewake(now, current);
  }

  function maybePrewake(now: number, current: PodRhythm): void {
    const due = nextPrewake(current.prewakes, now - tickMs);
    if (due === null || due.at > now) return;
    const day = dayStartOf(now);
    const today = prewakesPerDay.get(day) ?? 0;
    if (today >= settings.prewakeMaxPerDay) return;
    prewakesPerDay.set(day, today + 1);
    prewakes += 1;
    pod = wake(now, due.slot);
  }

  function summary(): PolicyReplay {
    const sorted = [...windows].sort((a, b) => a - b);
    const billedMinutes = billedMs / MINUTE_MS;
    return {
      policy,
      billedMinutes: round(billedMinutes),
      costUsd: round((billedMinutes / 60) * trace.pricePerHour),
      coldStarts,
      waitMinutes: round(waitMs / MINUTE_MS),
      stopsDuringUse,
      prewakes,
      prewakeHits,
      windowMinutes: {
        min: round(sorted[0] ?? 0),
        median: round(sorted.length > 0 ? sorted[Math.floor(sorted.length / 2)] : 0),
        max: round(sorted[sorted.length - 1] ?? 0),
      },
      stops,
    };
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
