import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  formatTicks,
  messagesWith,
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

jest.setTimeout(180_000);

describe('idle monitor replicas and restarts', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-replicas', idleMonitors: 2, env: FAST_IDLE_ENV });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function waitForStop(podId: string): Promise<void> {
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);
  }

  it('two replicas produce one tick per interval between them, one volume list per tick, and one stop', async () => {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: 'shared-pod', status: 'RUNNING', vllmReady: true });
    await waitForStop('shared-pod');
    // A few more ticks after the stop, so the count covers a stretch with nothing to do as well.
    const stopTick = await waitForTick(
      monitors,
      (t) => t.at > since && t.phase === 'Down' && t.signal === 'Idle',
      EVENT_DEADLINE_MS,
      'the stop tick',
    );
    await waitForTick(
      monitors,
      (t) => t.scheduledAt !== null && t.scheduledAt >= stopTick.scheduledAt! + 3_000,
      EVENT_DEADLINE_MS,
      'three more ticks',
    );
    // Both replicas stop gracefully (each finishes the tick it holds), so every tick that listed has logged.
    const replicas = [...stack.idleMonitors];
    expect(await Promise.all(replicas.map((m) => m.stop()))).toEqual([0, 0]);

    const ticks = ticksSince(replicas, since);
    const scheduled = ticks.map((t) => t.scheduledAt!);
    // Across both processes: one 'idle tick' line per scheduled interval (no tick evaluated twice), on the grid.
    expect(new Set(ticks.map((t) => t.tickId)).size).toBe(ticks.length);
    expect(new Set(scheduled).size).toBe(ticks.length);
    const gaps = scheduled.slice(1).map((at, i) => at - scheduled[i]);
    expect(gaps.every((gap) => gap >= 1_000 && gap % 1_000 === 0)).toBe(true);
    // One GET /pods per tick: every list since the first of these ticks belongs to a tick line or to a
    // tick that found the pod busy (there are none of those with one tick at a time, but they would list too).
    const skipped = messagesWith(replicas, 'previous tick for this pod still running').length;
    const lists = (await simCalls(stack, { method: 'GET', path: '/pods' })).filter(
      (c) => Date.parse(c.at) >= ticks[0].scheduledAt!,
    );
    expect(lists).toHaveLength(ticks.length + skipped);
    // One stop for the two replicas.
    const stops = (await actions(stack)).filter((a) => a.action === 'Stop');
    expect(stops.map((a) => [a.podId, a.trigger])).toEqual([['shared-pod', 'idle']]);
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual(['shared-pod']);
    // Both replicas took ticks (which one takes a tick is BullMQ's choice, but over this many both do).
    expect(new Set(ticks.map((t) => t.monitor))).toEqual(new Set(replicas.map((m) => m.name)));
  });

  it('killing every monitor (SIGKILL) mid-streak and starting a new one continues the streak and the cap clock: the stop comes on schedule', async () => {
    if (!stack.idleMonitors.some((m) => m.running)) await stack.startIdleMonitor();
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: 'restart-pod', status: 'RUNNING', vllmReady: true });
    const ready = await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'ready',
    );
    const before = await podStatus(stack);
    expect(before.runtimeCapAt).not.toBeNull();
    // Killed early in the streak, so the window is far from over whenever the kill lands.
    await waitForTick(
      monitors,
      (t) => t.at > ready.at && t.idleStreak >= 1,
      EVENT_DEADLINE_MS,
      'idle streak 1',
    );
    const killed = stack.idleMonitors.filter((m) => m.running);
    for (const monitor of killed) await monitor.kill9();
    const fresh = await stack.startIdleMonitor();
    // The new process's first tick picks the streak up on the same clocks.
    const firstFresh = await waitForTick(
      monitors,
      (t) => t.monitor === fresh.name,
      EVENT_DEADLINE_MS,
      'a tick on the new monitor',
    );
    const after = await podStatus(stack);
    expect(firstFresh.phase).toBe('Ready');
    expect({ readySince: after.readySince, runtimeCapAt: after.runtimeCapAt }).toEqual({
      readySince: before.readySince,
      runtimeCapAt: before.runtimeCapAt,
    });
    await waitForStop('restart-pod');

    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.tickId === ready.tickId);
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const window = ticks.slice(readyIndex, stopIndex + 1);
    const byKilled = window.filter((t) => t.monitor !== fresh.name);
    const byFresh = window.filter((t) => t.monitor === fresh.name);
    // The streak ran on, unbroken, across the kill: one window counted once, part by the killed
    // process and the rest (at least the stop) by the new one.
    expect(window.map((t) => `${t.signal}/${t.phase}/${t.idleStreak}`)).toEqual([
      'Busy/Ready/0',
      ...Array.from({ length: WINDOW_TICKS - 1 }, (_, i) => `Idle/Ready/${i + 1}`),
      'Idle/Down/0',
    ]);
    expect(window).toEqual([...byKilled, ...byFresh]);
    expect(byKilled.length).toBeGreaterThanOrEqual(2);
    expect(byFresh.length).toBeGreaterThanOrEqual(1);
    if (process.env.IDLE_E2E_TABLE) process.stdout.write(`\n${formatTicks(ticks)}\n`);
  });
});
