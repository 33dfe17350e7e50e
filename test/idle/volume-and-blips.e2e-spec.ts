import { Stack } from '../support/stack';
import { TEST_API_KEY } from '../support/test-env';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  addFault,
  emptyVolume,
  messagesWith,
  podIdOfCall,
  seedPod,
  simCalls,
  stopCalls,
  waitForTick,
  waitForStopAndTick,
  ticksSince,
  WINDOW_TICKS,
} from './support/idle-harness';

/**
 * What the monitor must not be fooled by: a stale EXITED pod listed before
 * the pod that is billing, and control-plane blips (an unreadable list) that
 * say nothing about the pod.
 */

jest.setTimeout(180_000);

describe('idle monitor: stale pods and blips', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-volume', idleMonitors: 1, env: FAST_IDLE_ENV });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function waitForStop(podId: string): Promise<void> {
    await waitForStopAndTick(stack, podId, EVENT_DEADLINE_MS);
  }

  it('a stale Exited pod listed before its running replacement does not hide the billing pod: the replacement is stopped, the Exited one gets no call', async () => {
    const since = await emptyVolume(stack, monitors, { listOrder: 'stale-first' });
    await seedPod(stack, { id: 'stale-exited', status: 'EXITED', createdAt: '2026-01-01T00:00:00Z' });
    await seedPod(stack, { id: 'billing-pod', status: 'RUNNING', vllmReady: true });
    const seeded = Date.now();
    // The simulator really lists the dead pod first.
    const listed = await fetch(`${stack.simUrl}/v2/pods`, {
      headers: { Authorization: `Bearer ${TEST_API_KEY}` },
    });
    const order = ((await listed.json()) as Array<{ id: string }>).map((p) => p.id);
    expect(order).toEqual(['stale-exited', 'billing-pod']);

    await waitForStop('billing-pod');
    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    // Never NotRunning while the replacement bills: the streak runs its window.
    const whileBilling = ticks.slice(0, stopIndex).filter((t) => t.scheduledAt! > seeded);
    expect(whileBilling.some((t) => t.signal === 'NotRunning')).toBe(false);
    expect(stopIndex - readyIndex).toBe(WINDOW_TICKS);

    const stops = (await actions(stack)).filter((a) => a.action === 'Stop');
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([['billing-pod', 'idle', true]]);
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual(['billing-pod']);
    // Two pods on the volume is worth a warning on every tick.
    expect(messagesWith(monitors(), '2 pods on volume vol-eu-ro-1').length).toBeGreaterThanOrEqual(
      WINDOW_TICKS,
    );
  });

  it('Unknown ticks (an unreadable pod list) neither accrue nor reset the idle streak', async () => {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: 'blipped-pod', status: 'RUNNING', vllmReady: true });
    const blindTicks = 4;
    // The fault goes in early in the streak; whichever streak it meets, the blind ticks must hold it.
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready' && t.idleStreak === 1,
      EVENT_DEADLINE_MS,
      'idle streak 1',
    );
    const faultedFrom = Date.now();
    await addFault(stack, { route: 'list', kind: 'unreadable', times: blindTicks });
    await waitForStop('blipped-pod');

    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const firstBlind = ticks.findIndex((t) => t.signal === 'Unknown');
    const held = ticks[firstBlind - 1].idleStreak;
    const trail = ticks.slice(readyIndex, stopIndex + 1).map((t) => `${t.signal}/${t.phase}/${t.idleStreak}`);
    expect(held).toBeGreaterThanOrEqual(1);
    expect(held).toBeLessThan(WINDOW_TICKS);
    expect(trail).toEqual([
      'Busy/Ready/0',
      ...Array.from({ length: held }, (_, i) => `Idle/Ready/${i + 1}`),
      ...Array.from({ length: blindTicks }, () => `Unknown/Ready/${held}`),
      ...Array.from({ length: WINDOW_TICKS - 1 - held }, (_, i) => `Idle/Ready/${held + i + 1}`),
      'Idle/Down/0',
    ]);
    // Exactly the faulted lists failed, one per tick, and nothing was stopped during the blind run.
    const lists = (await simCalls(stack, { method: 'GET', path: '/pods' })).filter(
      (c) => Date.parse(c.at) >= faultedFrom,
    );
    expect(lists.filter((c) => c.status === 500)).toHaveLength(blindTicks);
    expect((await actions(stack)).filter((a) => a.podId === 'blipped-pod').map((a) => a.trigger)).toEqual([
      'idle',
    ]);
  });
});
