import type { PodActivity } from '../domain/activity';
import { classifyActivity } from './activity-classification';
import {
  advanceIdle,
  afterStop,
  idleSettings,
  INITIAL_IDLE_STATE,
  readyAfterMs,
  type IdleAdvance,
  type IdleSettings,
  type IdleState,
  type StopReason,
} from './idle-phase';
import type { PodSignal } from './pod-signal';

const T0 = 1_700_000_000_000;
const DEFAULTS = idleSettings({
  idleMinutes: 15,
  checkSeconds: 60,
  bootGraceMinutes: 20,
  maxRuntimeMinutes: 360,
});

/** A stand-in for the monitor: one advance per tick, every CHECK_SECONDS, and afterStop on a stop. */
class FakeMonitor {
  state: IdleState = INITIAL_IDLE_STATE;
  now = T0;
  private tickCount = 0;

  constructor(
    private readonly settings: IdleSettings,
    public acceptStops = true,
  ) {}

  /** Time of the n-th tick (1-based). */
  at(tick: number): number {
    return T0 + tick * this.settings.checkSeconds * 1000;
  }

  tick(signal: PodSignal): IdleAdvance {
    this.tickCount += 1;
    this.now = this.at(this.tickCount);
    const result = advanceIdle(this.state, signal, this.now, this.settings);
    this.state =
      result.stop === null ? result.state : afterStop(result.state, result.stop, this.acceptStops, this.now);
    return result;
  }

  ticks(signal: PodSignal, count: number): IdleAdvance[] {
    return Array.from({ length: count }, () => this.tick(signal));
  }
}

function stops(results: readonly IdleAdvance[]): Array<StopReason | null> {
  return results.map((result) => result.stop);
}
/** count-1 quiet ticks, then the stop. */
function stopsOnLast(count: number, reason: StopReason): Array<StopReason | null> {
  return [...Array<null>(count - 1).fill(null), reason];
}
function never(count: number): null[] {
  return Array<null>(count).fill(null);
}

describe('idle auto-stop over many ticks', () => {
  it('with the defaults an unused pod stops on the 15th idle scrape counting the ready scrape, not while booting', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    expect(stops([...monitor.ticks('Booting', 3), ...monitor.ticks('UnreachableButRunning', 5)])).toEqual(
      never(8),
    );
    const idle = monitor.ticks('Idle', 15);
    expect(idle[0]?.becameReady).toBe(true);
    expect(stops(idle)).toEqual(stopsOnLast(15, 'idle'));
    expect(monitor.state).toEqual(INITIAL_IDLE_STATE);
  });

  it('with IDLE_MINUTES=0.1 and CHECK_SECONDS=1 an unused pod stops on the 6th idle scrape', () => {
    const monitor = new FakeMonitor(
      idleSettings({ idleMinutes: 0.1, checkSeconds: 1, bootGraceMinutes: 0, maxRuntimeMinutes: 0 }),
    );
    expect(stops(monitor.ticks('Idle', 6))).toEqual(stopsOnLast(6, 'idle'));
  });

  it('with work counters the ready scrape only seeds the baseline, so the 15th idle scrape follows it', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    let baseline: number | null = null;
    const scrape = (activity: PodActivity): IdleAdvance => {
      const classification = classifyActivity(activity, baseline);
      baseline = classification.nextBaseline;
      return monitor.tick(classification.reading);
    };
    const ready = scrape({ active: 0, completed: 100 });
    expect(ready.becameReady).toBe(true);
    expect(ready.state.idleStreak).toBe(0);
    const idle = Array.from({ length: 15 }, () => scrape({ active: 0, completed: 100 }));
    expect(stops(idle)).toEqual(stopsOnLast(15, 'idle'));
  });

  it('a turn between two ticks resets the streak through the counter', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    let baseline: number | null = null;
    const scrape = (completed: number): IdleAdvance => {
      const classification = classifyActivity({ active: 0, completed }, baseline);
      baseline = classification.nextBaseline;
      return monitor.tick(classification.reading);
    };
    scrape(100);
    for (let i = 0; i < 10; i += 1) scrape(100);
    expect(monitor.state.idleStreak).toBe(10);
    expect(scrape(130).state.idleStreak).toBe(0);
    expect(stops(Array.from({ length: 15 }, () => scrape(130)))).toEqual(stopsOnLast(15, 'idle'));
  });

  it('a pod that only ever boots is never idle-stopped (grace and cap disabled)', () => {
    const monitor = new FakeMonitor({ ...DEFAULTS, requiredBootGraceTicks: 0, maxRuntimeMs: 0 });
    const booting = [...monitor.ticks('Booting', 300), ...monitor.ticks('UnreachableButRunning', 300)];
    expect(stops(booting)).toEqual(never(600));
    expect(monitor.state).toMatchObject({
      phase: 'Booting',
      idleStreak: 0,
      bootingTicks: 600,
      readySince: null,
    });
  });

  it('model-load ticks (Running without metrics) count as boot, not idle', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    expect(stops([...monitor.ticks('Booting', 2), ...monitor.ticks('UnreachableButRunning', 17)])).toEqual(
      never(19),
    );
    expect(monitor.state.idleStreak).toBe(0);
    const idle = monitor.ticks('Idle', 15);
    expect(idle[0]?.state).toMatchObject({ phase: 'Ready', idleStreak: 1, bootingTicks: 0 });
    expect(stops(idle)).toEqual(stopsOnLast(15, 'idle'));
  });

  it('a model that never answers is stopped on the 20th boot tick, mixed startup phases sharing one budget', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    const boot = [...monitor.ticks('Booting', 10), ...monitor.ticks('UnreachableButRunning', 10)];
    expect(stops(boot)).toEqual(stopsOnLast(20, 'boot-grace'));
  });

  it('Unknown pauses the boot budget without resetting it', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    const boot = [
      ...monitor.ticks('Booting', 10),
      ...monitor.ticks('Unknown', 5),
      ...monitor.ticks('UnreachableButRunning', 10),
    ];
    expect(stops(boot)).toEqual(stopsOnLast(25, 'boot-grace'));
  });

  it('Unknown in the middle of a streak neither accrues nor resets it, nor touches the cap clock', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    monitor.ticks('Idle', 5);
    const before = monitor.state;
    expect(before.idleStreak).toBe(5);
    expect(stops(monitor.ticks('Unknown', 10))).toEqual(never(10));
    expect(monitor.state).toBe(before);
    expect(stops(monitor.ticks('Idle', 10))).toEqual(stopsOnLast(10, 'idle'));
  });

  it('the cap clock is armed by the first up observation, never by Unknown', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    monitor.ticks('Unknown', 10);
    expect(monitor.state.upSince).toBeNull();
    monitor.tick('Booting');
    expect(monitor.state.upSince).toBe(monitor.at(11));
  });

  it('a refused idle stop resets only the streak, keeps Ready, and waits a whole window', () => {
    const monitor = new FakeMonitor(DEFAULTS, false);
    const first = monitor.ticks('Idle', 15);
    expect(stops(first)).toEqual(stopsOnLast(15, 'idle'));
    expect(monitor.state).toMatchObject({ phase: 'Ready', idleStreak: 0, readySince: monitor.at(1) });
    const second = monitor.ticks('Idle', 15);
    expect(stops(second)).toEqual(stopsOnLast(15, 'idle'));
    expect(second.some((result) => result.becameReady)).toBe(false);
  });

  it('a refused boot-grace stop resets only the boot ticks and waits a whole grace', () => {
    const monitor = new FakeMonitor(DEFAULTS, false);
    expect(stops(monitor.ticks('Booting', 20))).toEqual(stopsOnLast(20, 'boot-grace'));
    expect(monitor.state).toMatchObject({ phase: 'Booting', bootingTicks: 0, upSince: monitor.at(1) });
    expect(stops(monitor.ticks('UnreachableButRunning', 20))).toEqual(stopsOnLast(20, 'boot-grace'));
  });

  it('an accepted stop is the Down edge: a re-wake boots again and readies with an empty streak and a fresh readySince', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    monitor.ticks('Idle', 15);
    expect(monitor.state).toEqual(INITIAL_IDLE_STATE);
    const startup = monitor.tick('Booting');
    expect(startup.state).toMatchObject({ phase: 'Booting', bootingTicks: 1, upSince: monitor.at(16) });
    const ready = monitor.tick('Busy');
    expect(ready.becameReady).toBe(true);
    expect(ready.state).toMatchObject({
      phase: 'Ready',
      idleStreak: 0,
      readySince: monitor.at(17),
      upSince: monitor.at(16),
    });
    expect(readyAfterMs(ready.state)).toBe(60_000);
  });

  it('with a boot grace of 0 only the cap stops a pod that never comes up', () => {
    const monitor = new FakeMonitor(
      idleSettings({ idleMinutes: 15, checkSeconds: 60, bootGraceMinutes: 0, maxRuntimeMinutes: 360 }),
    );
    expect(stops(monitor.ticks('Booting', 361))).toEqual(stopsOnLast(361, 'runtime-cap'));
  });

  it('the cap stops a phantom-busy pod exactly when it has been up for the cap', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    // Up since tick 1, so tick 361 is the first at which 360 minutes have passed.
    expect(stops(monitor.ticks('Busy', 361))).toEqual(stopsOnLast(361, 'runtime-cap'));
    expect(monitor.state).toEqual(INITIAL_IDLE_STATE);
  });

  it('the cap fires through a run of Unknown ticks, on the blind tick where its clock runs out', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    monitor.ticks('Busy', 5);
    // Armed at tick 1, due at tick 361: the 356th blind tick.
    expect(stops(monitor.ticks('Unknown', 356))).toEqual(stopsOnLast(356, 'runtime-cap'));
  });

  it('a refused blind cap stop tries again on the very next blind tick', () => {
    const monitor = new FakeMonitor(DEFAULTS, false);
    monitor.ticks('Busy', 5);
    expect(stops(monitor.ticks('Unknown', 356))).toEqual(stopsOnLast(356, 'runtime-cap'));
    expect(monitor.tick('Unknown').stop).toBe('runtime-cap');
  });

  it('a refused cap stop tries again on the very next tick', () => {
    const monitor = new FakeMonitor(DEFAULTS, false);
    expect(stops(monitor.ticks('Busy', 361))).toEqual(stopsOnLast(361, 'runtime-cap'));
    expect(monitor.tick('Busy').stop).toBe('runtime-cap');
  });

  it('a cap of 0 never stops a phantom-busy pod', () => {
    const monitor = new FakeMonitor({ ...DEFAULTS, maxRuntimeMs: 0 });
    expect(stops(monitor.ticks('Busy', 2_000))).toEqual(never(2_000));
  });

  it('NotRunning between boots disarms the cap, so the next boot gets a whole cap', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    monitor.ticks('Busy', 300);
    monitor.tick('NotRunning');
    expect(monitor.state).toMatchObject({ phase: 'Down', upSince: null, readySince: null });
    expect(stops(monitor.ticks('Busy', 361))).toEqual(stopsOnLast(361, 'runtime-cap'));
  });

  it('a startup observed after Ready clears readiness and starts a fresh boot budget, keeping the cap clock', () => {
    const monitor = new FakeMonitor(DEFAULTS);
    monitor.ticks('Busy', 1);
    monitor.ticks('Idle', 3);
    const startup = monitor.tick('Booting');
    expect(startup.startupAfterReady).toBe(true);
    expect(startup.state).toEqual({
      phase: 'Booting',
      idleStreak: 0,
      bootingTicks: 1,
      upSince: monitor.at(1),
      bootStartedAt: monitor.at(5),
      readySince: null,
      lastTickAt: monitor.at(5),
    });
    expect(stops(monitor.ticks('UnreachableButRunning', 18))).toEqual(never(18));
    const ready = monitor.tick('Idle');
    expect(ready.becameReady).toBe(true);
    expect(ready.state).toMatchObject({ readySince: monitor.at(24), idleStreak: 1, bootingTicks: 0 });
    expect(readyAfterMs(ready.state)).toBe(19 * 60_000);
  });
});
