import type { PodSignal } from './pod-signal';

/**
 * Idle time starts at model-ready: a RUNNING pod spends minutes loading the
 * model, and counting that as idle stopped pods almost as soon as they served.
 */
export type IdlePhase = 'Down' | 'Booting' | 'Ready';

/**
 * One volume's idle bookkeeping. Shared by every monitor replica through Redis,
 * so it is a plain JSON value; times are epoch milliseconds.
 */
export interface IdleState {
  readonly phase: IdlePhase;
  /** Consecutive idle observations since ready, counting the ready tick when it read idle. */
  readonly idleStreak: number;
  /** Ticks of this boot spent positively starting or running without metrics. */
  readonly bootingTicks: number;
  /** The runtime cap's clock: the first positive up observation since the volume was last down. */
  readonly upSince: number | null;
  /** The first positive startup or up observation of this boot, for the "ready after" log. */
  readonly bootStartedAt: number | null;
  /** When metrics first answered in this boot; null while down or booting. */
  readonly readySince: number | null;
  /** The last tick that observed anything (Unknown ticks observe nothing), for the idle deadline. */
  readonly lastTickAt: number | null;
}

export const INITIAL_IDLE_STATE: IdleState = {
  phase: 'Down',
  idleStreak: 0,
  bootingTicks: 0,
  upSince: null,
  bootStartedAt: null,
  readySince: null,
  lastTickAt: null,
};

export interface IdleSettings {
  /** Idle observations in Ready that stop the pod. */
  readonly requiredIdleStreak: number;
  /** Booting ticks that stop a pod whose model never answers; 0 disables the guard. */
  readonly requiredBootGraceTicks: number;
  /** Continuous up time that stops the volume whatever it reads; 0 disables the cap. */
  readonly maxRuntimeMs: number;
  readonly checkSeconds: number;
}

export interface IdleSettingsInput {
  readonly idleMinutes: number;
  readonly checkSeconds: number;
  readonly bootGraceMinutes: number;
  readonly maxRuntimeMinutes: number;
}

// Minutes are decimals (0.1 × 60 is 6.000000000000001 in binary), so a ratio that is
// whole up to rounding noise must not gain a tick.
const ROUNDING_NOISE = 1e-9;

function ticksFor(minutes: number, checkSeconds: number): number {
  return Math.max(1, Math.ceil((minutes * 60) / checkSeconds - ROUNDING_NOISE));
}

export function idleSettings(input: IdleSettingsInput): IdleSettings {
  return {
    requiredIdleStreak: ticksFor(input.idleMinutes, input.checkSeconds),
    requiredBootGraceTicks:
      input.bootGraceMinutes === 0 ? 0 : ticksFor(input.bootGraceMinutes, input.checkSeconds),
    maxRuntimeMs: input.maxRuntimeMinutes * 60_000,
    checkSeconds: input.checkSeconds,
  };
}

/** Which guard asked for the stop; also the history's trigger. */
export type StopReason = 'idle' | 'boot-grace' | 'runtime-cap' | 'restart-loop';

export interface IdleAdvance {
  readonly state: IdleState;
  /** Stop every pod observed up when set. */
  readonly stop: StopReason | null;
  /** This tick entered Ready: log "ready after" once and publish readySince. */
  readonly becameReady: boolean;
  /** A new startup was positively observed after Ready: readiness was withdrawn and a fresh boot began. */
  readonly startupAfterReady: boolean;
}

// Unknown never reaches the transition: it changes nothing.
function transition(state: IdleState, signal: Exclude<PodSignal, 'Unknown'>, now: number): IdleState {
  const observed = { ...state, lastTickAt: now };
  switch (signal) {
    case 'NotRunning':
      // Genuinely down: the next up observation starts a new boot and a new cap clock.
      return { ...INITIAL_IDLE_STATE, lastTickAt: now };
    case 'Booting':
      if (state.phase === 'Ready') {
        // A new startup after Ready (the pod restarted): stale readiness goes, the boot budget starts afresh.
        return {
          ...observed,
          phase: 'Booting',
          idleStreak: 0,
          bootingTicks: 1,
          bootStartedAt: now,
          readySince: null,
        };
      }
      return { ...observed, phase: 'Booting', idleStreak: 0, bootingTicks: state.bootingTicks + 1 };
    case 'UnreachableButRunning':
      if (state.phase === 'Ready') {
        // A vLLM that died after serving still bills: it accrues like idle.
        return { ...observed, idleStreak: state.idleStreak + 1 };
      }
      // Running while the model loads is boot, not idle.
      return { ...observed, phase: 'Booting', idleStreak: 0, bootingTicks: state.bootingTicks + 1 };
    case 'Busy':
    case 'Idle':
      if (state.phase === 'Ready') {
        return { ...observed, idleStreak: signal === 'Idle' ? state.idleStreak + 1 : 0 };
      }
      // Metrics answered: the model is loaded. The ready tick is the first idle observation when idle.
      return {
        ...observed,
        phase: 'Ready',
        idleStreak: signal === 'Idle' ? 1 : 0,
        bootingTicks: 0,
        readySince: now,
      };
  }
}

function armClocks(state: IdleState, now: number): IdleState {
  return { ...state, upSince: state.upSince ?? now, bootStartedAt: state.bootStartedAt ?? now };
}

/** The cap's clock has run out (it keeps running through blind ticks: it is wall-clock time). */
function capDue(state: IdleState, now: number, settings: IdleSettings): boolean {
  return settings.maxRuntimeMs > 0 && state.upSince !== null && now - state.upSince >= settings.maxRuntimeMs;
}

function stopFor(state: IdleState, now: number, settings: IdleSettings): StopReason | null {
  // The cap comes first: it is the backstop for a phantom-busy vLLM or a run of blind ticks.
  if (capDue(state, now, settings)) {
    return 'runtime-cap';
  }
  if (
    state.phase === 'Booting' &&
    settings.requiredBootGraceTicks > 0 &&
    state.bootingTicks >= settings.requiredBootGraceTicks
  ) {
    return 'boot-grace';
  }
  if (state.phase === 'Ready' && state.idleStreak >= settings.requiredIdleStreak) {
    return 'idle';
  }
  return null;
}

/**
 * One tick of the phase machine. Unknown changes nothing and asks for no idle or boot-grace stop, but the
 * cap clock runs on: a cap due during a blind run fires on the blind tick, as the backstop for exactly
 * that, aimed at the pods last seen up (`capTargets`), never at "nothing to stop".
 */
export function advanceIdle(
  state: IdleState,
  signal: PodSignal,
  now: number,
  settings: IdleSettings,
): IdleAdvance {
  if (signal === 'Unknown') {
    const stop = capDue(state, now, settings) ? 'runtime-cap' : null;
    return { state, stop, becameReady: false, startupAfterReady: false };
  }
  const moved = transition(state, signal, now);
  const next = signal === 'NotRunning' ? moved : armClocks(moved, now);
  return {
    state: next,
    stop: stopFor(next, now, settings),
    becameReady: state.phase !== 'Ready' && next.phase === 'Ready',
    startupAfterReady: state.phase === 'Ready' && signal === 'Booting',
  };
}

/**
 * What a stop attempt leaves. An accepted stop is the Down edge: a re-wake starts a new boot, not a stale
 * Ready. A refused one keeps the phase and resets only the counter that fired, so a full window passes
 * first; a refused cap stop keeps its clock: a cost backstop must not wait out another whole cap.
 */
export function afterStop(state: IdleState, reason: StopReason, accepted: boolean, _now: number): IdleState {
  if (accepted) {
    return INITIAL_IDLE_STATE;
  }
  switch (reason) {
    case 'idle':
      return { ...state, idleStreak: 0 };
    case 'boot-grace':
    case 'restart-loop':
      return { ...state, bootingTicks: 0 };
    case 'runtime-cap':
      return state;
  }
}

/** When the idle stop falls due if every remaining tick reads idle; null outside Ready. */
export function idleStopAt(state: IdleState, settings: IdleSettings): number | null {
  if (state.phase !== 'Ready' || state.lastTickAt === null) {
    return null;
  }
  const remainingTicks = Math.max(0, settings.requiredIdleStreak - state.idleStreak);
  return state.lastTickAt + remainingTicks * settings.checkSeconds * 1000;
}

/** When the runtime cap falls due; null when it is disabled or not armed. */
export function runtimeCapAt(state: IdleState, settings: IdleSettings): number | null {
  if (settings.maxRuntimeMs <= 0 || state.upSince === null) {
    return null;
  }
  return state.upSince + settings.maxRuntimeMs;
}

/** How long this boot took to answer metrics, for the "ready after" log; null when not ready. */
export function readyAfterMs(state: IdleState): number | null {
  if (state.readySince === null || state.bootStartedAt === null) {
    return null;
  }
  return state.readySince - state.bootStartedAt;
}
