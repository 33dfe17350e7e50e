import {
  advanceIdle,
  afterStop,
  idleSettings,
  idleStopAt,
  INITIAL_IDLE_STATE,
  readyAfterMs,
  runtimeCapAt,
  type IdleSettings,
  type IdleSettingsInput,
  type IdleState,
  type StopReason,
} from './idle-phase';
import type { PodSignal } from './pod-signal';

describe(idleSettings.name, () => {
  it.each<[string, IdleSettingsInput, IdleSettings]>([
    [
      'the defaults (15 min / 60 s, grace 20 min, cap 360 min) need 15 idle ticks and 20 boot ticks',
      { idleMinutes: 15, checkSeconds: 60, bootGraceMinutes: 20, maxRuntimeMinutes: 360 },
      { requiredIdleStreak: 15, requiredBootGraceTicks: 20, maxRuntimeMs: 21_600_000, checkSeconds: 60 },
    ],
    [
      '0.1 min at 1 s is exactly 6 ticks despite binary rounding; grace and cap 0 disable',
      { idleMinutes: 0.1, checkSeconds: 1, bootGraceMinutes: 0, maxRuntimeMinutes: 0 },
      { requiredIdleStreak: 6, requiredBootGraceTicks: 0, maxRuntimeMs: 0, checkSeconds: 1 },
    ],
    [
      'a window that is not a whole number of ticks rounds up',
      { idleMinutes: 1, checkSeconds: 7, bootGraceMinutes: 1, maxRuntimeMinutes: 1 },
      { requiredIdleStreak: 9, requiredBootGraceTicks: 9, maxRuntimeMs: 60_000, checkSeconds: 7 },
    ],
    [
      'a real fraction of a tick still rounds up (15.01 min at 60 s is 16 ticks)',
      { idleMinutes: 15.01, checkSeconds: 60, bootGraceMinutes: 20.5, maxRuntimeMinutes: 2 },
      { requiredIdleStreak: 16, requiredBootGraceTicks: 21, maxRuntimeMs: 120_000, checkSeconds: 60 },
    ],
    [
      'windows shorter than a tick still need one tick',
      { idleMinutes: 0.001, checkSeconds: 60, bootGraceMinutes: 0.001, maxRuntimeMinutes: 0.5 },
      { requiredIdleStreak: 1, requiredBootGraceTicks: 1, maxRuntimeMs: 30_000, checkSeconds: 60 },
    ],
    [
      'a zero idle window still needs one idle tick',
      { idleMinutes: 0, checkSeconds: 60, bootGraceMinutes: 0.5, maxRuntimeMinutes: 360 },
      { requiredIdleStreak: 1, requiredBootGraceTicks: 1, maxRuntimeMs: 21_600_000, checkSeconds: 60 },
    ],
    [
      'decimal windows that are whole tick counts do not gain a tick (0.3 min / 6 s, 0.7 min / 6 s)',
      { idleMinutes: 0.3, checkSeconds: 6, bootGraceMinutes: 0.7, maxRuntimeMinutes: 1 },
      { requiredIdleStreak: 3, requiredBootGraceTicks: 7, maxRuntimeMs: 60_000, checkSeconds: 6 },
    ],
  ])('%s', (_rule, input, expected) => {
    expect(idleSettings(input)).toEqual(expected);
  });
});

// Thresholds high enough that the transition table below never stops.
const QUIET: IdleSettings = {
  requiredIdleStreak: 100,
  requiredBootGraceTicks: 100,
  maxRuntimeMs: 0,
  checkSeconds: 60,
};
const NOW = 500_000;

const DOWN: IdleState = INITIAL_IDLE_STATE;
const BOOTING: IdleState = {
  phase: 'Booting',
  idleStreak: 0,
  bootingTicks: 3,
  upSince: 1_000,
  bootStartedAt: 2_000,
  readySince: null,
  lastTickAt: 181_000,
};
const READY: IdleState = {
  phase: 'Ready',
  idleStreak: 4,
  bootingTicks: 0,
  upSince: 1_000,
  bootStartedAt: 2_000,
  readySince: 300_000,
  lastTickAt: 400_000,
};

interface Transition {
  readonly state: IdleState;
  readonly becameReady: boolean;
  readonly startupAfterReady: boolean;
}

describe(`${advanceIdle.name}: the phase table`, () => {
  it.each<[string, IdleState, PodSignal, Transition]>([
    // Down
    [
      'Down + Busy enters Ready with an empty streak, arming the cap and readySince',
      DOWN,
      'Busy',
      {
        state: {
          phase: 'Ready',
          idleStreak: 0,
          bootingTicks: 0,
          upSince: NOW,
          bootStartedAt: NOW,
          readySince: NOW,
          lastTickAt: NOW,
        },
        becameReady: true,
        startupAfterReady: false,
      },
    ],
    [
      'Down + Idle enters Ready and the ready tick is the first idle observation',
      DOWN,
      'Idle',
      {
        state: {
          phase: 'Ready',
          idleStreak: 1,
          bootingTicks: 0,
          upSince: NOW,
          bootStartedAt: NOW,
          readySince: NOW,
          lastTickAt: NOW,
        },
        becameReady: true,
        startupAfterReady: false,
      },
    ],
    [
      'Down + UnreachableButRunning is the model loading: Booting, one boot tick',
      DOWN,
      'UnreachableButRunning',
      {
        state: {
          phase: 'Booting',
          idleStreak: 0,
          bootingTicks: 1,
          upSince: NOW,
          bootStartedAt: NOW,
          readySince: null,
          lastTickAt: NOW,
        },
        becameReady: false,
        startupAfterReady: false,
      },
    ],
    [
      'Down + Booting enters Booting with one boot tick and arms the cap',
      DOWN,
      'Booting',
      {
        state: {
          phase: 'Booting',
          idleStreak: 0,
          bootingTicks: 1,
          upSince: NOW,
          bootStartedAt: NOW,
          readySince: null,
          lastTickAt: NOW,
        },
        becameReady: false,
        startupAfterReady: false,
      },
    ],
    [
      'Down + NotRunning stays Down with nothing armed',
      DOWN,
      'NotRunning',
      { state: { ...INITIAL_IDLE_STATE, lastTickAt: NOW }, becameReady: false, startupAfterReady: false },
    ],
    // Booting
    [
      'Booting + Busy enters Ready with an empty streak; the boot and cap clocks stay',
      BOOTING,
      'Busy',
      {
        state: {
          phase: 'Ready',
          idleStreak: 0,
          bootingTicks: 0,
          upSince: 1_000,
          bootStartedAt: 2_000,
          readySince: NOW,
          lastTickAt: NOW,
        },
        becameReady: true,
        startupAfterReady: false,
      },
    ],
    [
      'Booting + Idle enters Ready with a streak of one',
      BOOTING,
      'Idle',
      {
        state: {
          phase: 'Ready',
          idleStreak: 1,
          bootingTicks: 0,
          upSince: 1_000,
          bootStartedAt: 2_000,
          readySince: NOW,
          lastTickAt: NOW,
        },
        becameReady: true,
        startupAfterReady: false,
      },
    ],
    [
      'Booting + UnreachableButRunning counts as boot, not idle',
      BOOTING,
      'UnreachableButRunning',
      {
        state: { ...BOOTING, bootingTicks: 4, lastTickAt: NOW },
        becameReady: false,
        startupAfterReady: false,
      },
    ],
    [
      'Booting + Booting accrues one boot tick',
      BOOTING,
      'Booting',
      {
        state: { ...BOOTING, bootingTicks: 4, lastTickAt: NOW },
        becameReady: false,
        startupAfterReady: false,
      },
    ],
    [
      'Booting + NotRunning goes Down and clears every clock',
      BOOTING,
      'NotRunning',
      { state: { ...INITIAL_IDLE_STATE, lastTickAt: NOW }, becameReady: false, startupAfterReady: false },
    ],
    // Ready
    [
      'Ready + Busy resets the streak and keeps readySince',
      READY,
      'Busy',
      { state: { ...READY, idleStreak: 0, lastTickAt: NOW }, becameReady: false, startupAfterReady: false },
    ],
    [
      'Ready + Idle accrues one idle tick',
      READY,
      'Idle',
      { state: { ...READY, idleStreak: 5, lastTickAt: NOW }, becameReady: false, startupAfterReady: false },
    ],
    [
      'Ready + UnreachableButRunning (vLLM died after serving) accrues like idle',
      READY,
      'UnreachableButRunning',
      { state: { ...READY, idleStreak: 5, lastTickAt: NOW }, becameReady: false, startupAfterReady: false },
    ],
    [
      'Ready + Booting is a new startup: readiness cleared, fresh boot budget, cap clock kept',
      READY,
      'Booting',
      {
        state: {
          phase: 'Booting',
          idleStreak: 0,
          bootingTicks: 1,
          upSince: 1_000,
          bootStartedAt: NOW,
          readySince: null,
          lastTickAt: NOW,
        },
        becameReady: false,
        startupAfterReady: true,
      },
    ],
    [
      'Ready + NotRunning goes Down and clears readiness and the cap',
      READY,
      'NotRunning',
      { state: { ...INITIAL_IDLE_STATE, lastTickAt: NOW }, becameReady: false, startupAfterReady: false },
    ],
  ])('%s', (_rule, state, signal, expected) => {
    expect(advanceIdle(state, signal, NOW, QUIET)).toEqual({ ...expected, stop: null });
  });

  it.each<[string, IdleState]>([
    ['Down', DOWN],
    ['Booting', BOOTING],
    ['Ready', READY],
  ])('Unknown in %s changes nothing at all, not even the tick time', (_phase, state) => {
    const result = advanceIdle(state, 'Unknown', NOW, QUIET);
    expect(result).toEqual({ state, stop: null, becameReady: false, startupAfterReady: false });
    expect(result.state).toBe(state);
  });

  it('Ready + Booting with no boot clock yet starts it at this tick', () => {
    const result = advanceIdle({ ...READY, bootStartedAt: null }, 'Booting', NOW, QUIET);
    expect(result.state.bootStartedAt).toBe(NOW);
  });
});

describe(`${advanceIdle.name}: stops`, () => {
  const settings: IdleSettings = {
    requiredIdleStreak: 3,
    requiredBootGraceTicks: 3,
    maxRuntimeMs: 60_000,
    checkSeconds: 60,
  };
  const upSince = 100_000;
  const readyAt = (idleStreak: number): IdleState => ({ ...READY, idleStreak, upSince });
  const bootingAt = (bootingTicks: number): IdleState => ({ ...BOOTING, bootingTicks, upSince });
  const justBefore = upSince + 59_999;
  const atCap = upSince + 60_000;

  it.each<[string, IdleState, PodSignal, number, IdleSettings, StopReason | null]>([
    ['one idle tick short of the window does not stop', readyAt(1), 'Idle', justBefore, settings, null],
    ['the idle tick that completes the window stops', readyAt(2), 'Idle', justBefore, settings, 'idle'],
    [
      'an UnreachableButRunning tick that completes the window stops',
      readyAt(2),
      'UnreachableButRunning',
      justBefore,
      settings,
      'idle',
    ],
    ['a Busy tick at the end of the window does not stop', readyAt(2), 'Busy', justBefore, settings, null],
    [
      'a streak already past the window stops on the next idle tick',
      readyAt(7),
      'Idle',
      justBefore,
      settings,
      'idle',
    ],
    ['one boot tick short of the grace does not stop', bootingAt(1), 'Booting', justBefore, settings, null],
    [
      'the boot tick that exhausts the grace stops as a dead model',
      bootingAt(2),
      'Booting',
      justBefore,
      settings,
      'boot-grace',
    ],
    [
      'a Running-without-metrics tick that exhausts the grace stops',
      bootingAt(2),
      'UnreachableButRunning',
      justBefore,
      settings,
      'boot-grace',
    ],
    [
      'a boot grace of 0 never stops a booting pod',
      bootingAt(500),
      'Booting',
      justBefore,
      { ...settings, requiredBootGraceTicks: 0 },
      null,
    ],
    ['the cap does not stop one millisecond early', readyAt(0), 'Busy', justBefore, settings, null],
    [
      'the cap stops exactly when now - upSince reaches it',
      readyAt(0),
      'Busy',
      atCap,
      settings,
      'runtime-cap',
    ],
    ['the cap wins over a due idle stop', readyAt(2), 'Idle', atCap, settings, 'runtime-cap'],
    ['the cap wins over a due boot-grace stop', bootingAt(2), 'Booting', atCap, settings, 'runtime-cap'],
    [
      'a cap of 0 never stops',
      readyAt(0),
      'Busy',
      upSince + 10 ** 12,
      { ...settings, maxRuntimeMs: 0 },
      null,
    ],
    [
      'NotRunning disarms the cap: no stop however late',
      readyAt(2),
      'NotRunning',
      atCap * 1000,
      settings,
      null,
    ],
    [
      'a fresh up observation arms the cap at now, never stopping on that tick',
      DOWN,
      'Busy',
      atCap * 1000,
      { ...settings, maxRuntimeMs: 1 },
      null,
    ],
    [
      'Unknown asks for no idle or boot-grace stop, however far past due',
      { ...readyAt(50), upSince: null },
      'Unknown',
      atCap * 1000,
      settings,
      null,
    ],
    [
      'Unknown asks for no boot-grace stop either',
      { ...bootingAt(50), upSince: null },
      'Unknown',
      atCap * 1000,
      settings,
      null,
    ],
    ['Unknown one ms short of the cap does not stop', readyAt(50), 'Unknown', atCap - 1, settings, null],
    ['the cap fires through a blind (Unknown) tick', readyAt(0), 'Unknown', atCap, settings, 'runtime-cap'],
    [
      'the cap fires through a blind tick of a booting pod',
      bootingAt(0),
      'Unknown',
      atCap,
      settings,
      'runtime-cap',
    ],
    [
      'a disabled cap never fires through a blind tick',
      readyAt(0),
      'Unknown',
      atCap * 1000,
      { ...settings, maxRuntimeMs: 0 },
      null,
    ],
    [
      'a boot-grace count never stops a Ready pod',
      { ...readyAt(0), bootingTicks: 50 },
      'Busy',
      justBefore,
      settings,
      null,
    ],
    [
      'an idle window of 0 still never idle-stops a booting pod',
      bootingAt(0),
      'Booting',
      justBefore,
      { ...settings, requiredIdleStreak: 0 },
      null,
    ],
  ])('%s', (_rule, state, signal, now, tickSettings, stop) => {
    expect(advanceIdle(state, signal, now, tickSettings).stop).toBe(stop);
  });
});

describe(afterStop.name, () => {
  // Both counters set, so a reset of the wrong one is visible.
  const fired: IdleState = { ...READY, idleStreak: 15, bootingTicks: 7 };

  it.each<StopReason>(['idle', 'boot-grace', 'runtime-cap'])(
    'an accepted %s stop is the Down edge: everything cleared',
    (reason) => {
      expect(afterStop(fired, reason, true, NOW)).toEqual(INITIAL_IDLE_STATE);
    },
  );

  it.each<[string, IdleState, StopReason, IdleState]>([
    [
      'a refused idle stop resets only the streak and keeps Ready',
      fired,
      'idle',
      { ...fired, idleStreak: 0 },
    ],
    [
      'a refused boot-grace stop resets only the boot ticks and keeps Booting',
      { ...BOOTING, idleStreak: 2, bootingTicks: 20 },
      'boot-grace',
      { ...BOOTING, idleStreak: 2, bootingTicks: 0 },
    ],
    ['a refused cap stop keeps everything, so the next tick tries again', fired, 'runtime-cap', fired],
  ])('%s', (_rule, state, reason, expected) => {
    expect(afterStop(state, reason, false, NOW)).toEqual(expected);
  });
});

describe(idleStopAt.name, () => {
  const settings: IdleSettings = {
    requiredIdleStreak: 15,
    requiredBootGraceTicks: 20,
    maxRuntimeMs: 0,
    checkSeconds: 60,
  };

  it.each<[string, IdleState, number | null]>([
    ['there is no idle deadline while Down', { ...DOWN, lastTickAt: 1_000_000 }, null],
    ['there is no idle deadline while Booting', { ...BOOTING, lastTickAt: 1_000_000 }, null],
    ['there is no idle deadline before any tick', { ...READY, lastTickAt: null }, null],
    [
      'an empty streak is a whole window after the last tick',
      { ...READY, idleStreak: 0, lastTickAt: 1_000_000 },
      1_900_000,
    ],
    [
      'each idle tick banked brings the deadline one tick closer',
      { ...READY, idleStreak: 1, lastTickAt: 1_000_000 },
      1_840_000,
    ],
    ['a due streak is due at the last tick', { ...READY, idleStreak: 15, lastTickAt: 1_000_000 }, 1_000_000],
    [
      'a streak past the window is due at the last tick, never earlier',
      { ...READY, idleStreak: 20, lastTickAt: 1_000_000 },
      1_000_000,
    ],
  ])('%s', (_rule, state, expected) => {
    expect(idleStopAt(state, settings)).toBe(expected);
  });
});

describe(runtimeCapAt.name, () => {
  const settings: IdleSettings = {
    requiredIdleStreak: 15,
    requiredBootGraceTicks: 20,
    maxRuntimeMs: 60_000,
    checkSeconds: 60,
  };

  it.each<[string, IdleState, IdleSettings, number | null]>([
    ['the cap falls due upSince + cap', { ...READY, upSince: 5_000 }, settings, 65_000],
    ['the cap is reported while booting too', { ...BOOTING, upSince: 5_000 }, settings, 65_000],
    ['an unarmed cap has no deadline', { ...READY, upSince: null }, settings, null],
    ['a disabled cap has no deadline', { ...READY, upSince: 5_000 }, { ...settings, maxRuntimeMs: 0 }, null],
  ])('%s', (_rule, state, capSettings, expected) => {
    expect(runtimeCapAt(state, capSettings)).toBe(expected);
  });
});

describe(readyAfterMs.name, () => {
  it.each<[string, IdleState, number | null]>([
    ['ready after is readySince minus the first startup observation', READY, 298_000],
    ['not ready yet has no elapsed time', BOOTING, null],
    ['no boot observation has no elapsed time', { ...READY, bootStartedAt: null }, null],
  ])('%s', (_rule, state, expected) => {
    expect(readyAfterMs(state)).toBe(expected);
  });
});
