import { INITIAL_IDLE_STATE, type IdleState, type StopReason } from './idle-phase';
import { idleEventsOf, type IdleEvent } from './idle-events';

const T = Date.UTC(2026, 0, 1, 12);
const down: IdleState = INITIAL_IDLE_STATE;
const booting: IdleState = { ...down, phase: 'Booting', bootingTicks: 2, upSince: T, bootStartedAt: T };
const ready = (idleStreak: number): IdleState => ({ ...booting, phase: 'Ready', idleStreak, readySince: T });

const phase = (
  to: 'down' | 'booting' | 'ready',
  from: 'down' | 'booting' | 'ready',
  stopReason: StopReason | null = null,
): IdleEvent => ({
  type: 'phase',
  data: {
    phase: to,
    from,
    readySince: to === 'ready' ? new Date(T).toISOString() : null,
    stopReason,
  },
});
const streak = (n: number): IdleEvent => ({
  type: 'idle-streak',
  data: { idleStreak: n, requiredIdleStreak: 5 },
});

describe(idleEventsOf.name, () => {
  it.each<[string, IdleState, IdleState, StopReason | null, IdleEvent[]]>([
    ['nothing changed: silent', down, down, null, []],
    ['still booting, more ticks: silent', booting, { ...booting, bootingTicks: 3 }, null, []],
    ['down to booting', down, booting, null, [phase('booting', 'down')]],
    ['booting to ready, busy', booting, ready(0), null, [phase('ready', 'booting')]],
    [
      'booting to ready on an idle read: the streak starts',
      booting,
      ready(1),
      null,
      [phase('ready', 'booting'), streak(1)],
    ],
    ['ready, the streak grows', ready(1), ready(2), null, [streak(2)]],
    ['ready, busy again: the streak resets', ready(3), ready(0), null, [streak(0)]],
    ['ready, still busy: silent', ready(0), ready(0), null, []],
    ['idle stop: down with its reason', ready(5), down, 'idle', [phase('down', 'ready', 'idle')]],
    ['boot grace stop', booting, down, 'boot-grace', [phase('down', 'booting', 'boot-grace')]],
    ['pod gone by itself: down without a reason', ready(2), down, null, [phase('down', 'ready')]],
    ['a refused stop keeps the phase: only the streak', ready(5), ready(0), 'idle', [streak(0)]],
    ['a reason only goes with a way down', booting, ready(0), 'idle', [phase('ready', 'booting')]],
    [
      "a streak left on a state that was not ready is no baseline: the ready pod's streak is news",
      { ...booting, idleStreak: 1 },
      ready(1),
      null,
      [phase('ready', 'booting'), streak(1)],
    ],
  ])('%s', (_rule, before, after, reason, expected) => {
    expect(idleEventsOf(before, after, 5, reason)).toEqual(expected);
  });
});
