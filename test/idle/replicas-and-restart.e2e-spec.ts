import { Stack } from '../support/stack';
import {
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  formatTicks,
  podIdOfCall,
  podStatus,
  seedPod,
  simCalls,
  stopCalls,
  waitForTick,
  waitForStopAndTick,
  ticksSince,
  WINDOW_TICKS,
} from './support/idle-harness';

/**
 * The monitor's state lives in Redis and its ticks are one BullMQ job
 * scheduler: any number of replicas tick once per interval between them, and
 * a replica killed mid-streak hands the streak and the cap clock to the next.
 */

jest.setTimeout(60_000);

describe('idle monitor replicas and restarts', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-replicas', idleMonitors: 2, env: FAST_IDLE_ENV });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function waitForStop(podId: string, timeoutMs = 20_000): Promise<void> {
    await waitForStopAndTick(stack, podId, timeoutMs);
  }

  it('two replicas produce one tick per interval between them, one volume list per tick, and one stop', async () => {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: 'shared-pod', status: 'RUNNING', vllmReady: true });
    await waitForStop('shared-pod');
    // A few more ticks after the stop, so the count covers a stretch with nothing to do as well.
    const stopTick = await waitForTick(
      monitors,
      (t) => t.at > since && t.phase === 'Down' && t.signal === 'Idle',
      1_000,
      'the stop tick',
    );
    await waitForTick(monitors, (t) => t.at > stopTick.at + 3_000, 6_000, 'three more ticks');

    const ticks = ticksSince(monitors(), since);
    const scheduled = ticks.map((t) => t.scheduledAt!);
    // Across both processes: one 'idle tick' line per scheduled interval (no tick evaluated twice), one second apart.
    expect(new Set(ticks.map((t) => t.tickId)).size).toBe(ticks.length);
    expect(new Set(scheduled).size).toBe(ticks.length);
    const gaps = scheduled.slice(1).map((at, i) => at - scheduled[i]);
    expect(gaps.every((gap) => gap >= 1_000 && gap % 1_000 === 0)).toBe(true);
    // ...and (almost) none skipped: at most one interval lost to scheduling lateness.
    expect(ticks.length).toBeGreaterThanOrEqual((scheduled[scheduled.length - 1] - scheduled[0]) / 1_000);
    // One GET /pods per tick: the lists made while those ticks ran equal the ticks.
    const first = ticks[0];
    const last = ticks[ticks.length - 1];
    const lists = (await simCalls(stack, { method: 'GET', path: '/pods' })).filter(
      (c) => Date.parse(c.at) >= first.scheduledAt! && Date.parse(c.at) <= last.at,
    );
    expect(lists).toHaveLength(ticks.length);
    // One stop for the two replicas.
    const stops = (await actions(stack)).filter((a) => a.action === 'Stop');
    expect(stops.map((a) => [a.podId, a.trigger])).toEqual([['shared-pod', 'idle']]);
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual(['shared-pod']);
    // Both replicas are up and consuming (which one takes a tick is BullMQ's choice).
    expect(stack.idleMonitors.every((m) => m.running)).toBe(true);
  });

  it('killing every monitor (SIGKILL) mid-streak and starting a new one continues the streak and the cap clock: the stop comes on schedule', async () => {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: 'restart-pod', status: 'RUNNING', vllmReady: true });
    const atThree = await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready' && t.idleStreak === 3,
      10_000,
      'idle streak 3',
    );
    const before = await podStatus(stack);
    expect(before.runtimeCapAt).not.toBeNull();
    for (const monitor of stack.idleMonitors) await monitor.kill9();
    const killedAt = Date.now();
    const fresh = await stack.startIdleMonitor();
    // The new process's first tick picks the streak up where the killed one left it, on the same clocks.
    await waitForTick(
      monitors,
      (t) => t.monitor === fresh.name && t.phase === 'Ready',
      10_000,
      'a tick on the new monitor',
    );
    const after = await podStatus(stack);
    expect({ readySince: after.readySince, runtimeCapAt: after.runtimeCapAt }).toEqual({
      readySince: before.readySince,
      runtimeCapAt: before.runtimeCapAt,
    });
    await waitForStop('restart-pod');

    const ticks = ticksSince(monitors(), since);
    const from = ticks.findIndex((t) => t.tickId === atThree.tickId);
    const stopIndex = ticks.findIndex((t, i) => i > from && t.phase === 'Down');
    const afterRestart = ticks.slice(from + 1, stopIndex + 1);
    // Every tick after the kill ran on the new process, and the streak went on from 3.
    expect(afterRestart.every((t) => t.monitor === fresh.name && t.at > killedAt)).toBe(true);
    expect(afterRestart.map((t) => `${t.signal}/${t.phase}/${t.idleStreak}`)).toEqual([
      'Idle/Ready/4',
      'Idle/Ready/5',
      'Idle/Down/0',
    ]);
    expect(stopIndex - from).toBe(WINDOW_TICKS - 3);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${formatTicks(ticks)}\n`);
  });
});
