import type { PodRun } from '@podwarden/policies';
import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  podStatus,
  simPod,
  tickLines,
  waitForTick,
} from '../idle/support/idle-harness';

/**
 * The documented absence of a dead-man's switch (docs/cost-guards.md): nothing of RunPod's stops a
 * pod while podwarden is down, so a pod outlives podwarden by as long as podwarden is down, then at
 * most one tick. Every podwarden process is killed with -9 while a woken pod serves; the simulator
 * keeps billing it past its runtime cap; on restart the idle monitor's first tick stops it, because
 * the cap clock (`upSince` in the idle record in Redis) kept running while nothing ran. A monitor
 * that restarted the clock would stop it only a whole cap later.
 * Cap 0.75 min (45 s) at one-second ticks; the idle window (30 min) is out of reach.
 */
const CAP_MS = 45_000;

jest.setTimeout(300_000);

interface SimBill {
  readonly podId: string;
  readonly billedSeconds: number;
  readonly open: boolean;
}

describe('every podwarden process killed with a pod up', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-podwarden-down',
      wakers: 1,
      idleMonitors: 1,
      env: { ...FAST_IDLE_ENV, IDLE_MINUTES: '30', MAX_RUNTIME_MINUTES: String(CAP_MS / 60_000) },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function billOf(podId: string): Promise<SimBill> {
    const answer = await stack.simRequest<{ pods: SimBill[] }>('GET', '/_sim/billing');
    const bill = answer.body.pods.find((pod) => pod.podId === podId);
    if (bill === undefined) throw new Error(`no bill for ${podId}`);
    return bill;
  }

  it('the pod bills past its cap while podwarden is down, and the first tick after the restart stops it (runtime-cap)', async () => {
    await emptyVolume(stack, monitors);
    const start = await stack.api('POST', '/api/pods/qwen/start', { token: 'wake' });
    expect([200, 202]).toContain(start.status);
    const podId = await eventually(
      async () => (await podStatus(stack)).podId ?? undefined,
      EVENT_DEADLINE_MS,
      'the created pod on the volume',
    );
    await waitForTick(monitors, (t) => t.phase === 'Ready', EVENT_DEADLINE_MS, 'the model seen ready');
    const capAt = Date.parse((await podStatus(stack)).runtimeCapAt!);

    // Down: no gateway, no waker, no idle monitor; no shutdown hook runs.
    const running = [stack.gateway!, ...stack.wakers, ...stack.idleMonitors];
    await Promise.all(running.map((app) => app.kill9()));
    const downAt = Date.now();
    expect(downAt).toBeLessThan(capAt);
    expect(running.every((app) => !app.running)).toBe(true);

    // Wait out the cap (and a few ticks more) with nothing watching: RunPod (the simulator) keeps billing.
    await eventually(async () => (Date.now() > capAt + 3_000 ? true : undefined), 2 * CAP_MS, 'the cap due');
    const whileDown = await billOf(podId);
    expect((await simPod(stack, podId)).status).toBe('RUNNING');
    expect(whileDown.open).toBe(true);
    expect(whileDown.billedSeconds * 1000).toBeGreaterThan(CAP_MS);

    // Back up: the first tick of the new monitor stops the pod, recorded as the runtime cap.
    const monitor = await stack.startIdleMonitor();
    await stack.startWaker();
    await stack.restartGateway();
    const stop = await waitForTick(
      () => [monitor],
      (t) => t.phase === 'Down',
      EVENT_DEADLINE_MS,
      'the stop after the restart',
    );
    const afterRestart = tickLines([monitor]);
    expect(afterRestart[0].tickId).toBe(stop.tickId);
    expect(afterRestart[0].signal).not.toBe('NotRunning');

    await eventually(
      async () => ((await simPod(stack, podId)).status === 'EXITED' ? true : undefined),
      EVENT_DEADLINE_MS,
      'the pod exited',
    );
    const stops = (await actions(stack)).filter((a) => a.action === 'Stop');
    expect(stops.map((a) => [a.podId, a.trigger, a.ok])).toEqual([[podId, 'runtime-cap', true]]);
    const bill = await billOf(podId);
    expect(bill.open).toBe(false);

    // The run in /history: ready, stopped by the cap, its uptime the whole time podwarden was away.
    const { runs } = (await stack.api<{ runs: PodRun[] }>('GET', '/api/pods/qwen/history')).body;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ podId, stopTrigger: 'runtime-cap' });
    expect(runs[0].readyAt).not.toBeNull();
    expect(runs[0].uptimeSeconds! * 1000).toBeGreaterThan(CAP_MS);
  });
});
