import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  addFault,
  emptyVolume,
  podStatus,
  seedPod,
  simPod,
  tickLines,
  waitForTick,
} from '../idle/support/idle-harness';

/**
 * The runtime cap is the backstop for a run of blind ticks, so it must fire
 * through them: with every /metrics scrape and every per-pod read failing
 * (and, in the second case, the list too) the volume reads Unknown on every
 * tick, and the cap still stops the pod it last saw up when its clock runs out.
 * Cap 0.2 min (12 s) at one-second ticks; idle window and boot grace out of reach.
 */
const FOREVER = 100_000;

jest.setTimeout(180_000);

describe('the runtime cap through blind ticks', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-blind-cap',
      idleMonitors: 1,
      env: {
        ...FAST_IDLE_ENV,
        IDLE_MINUTES: '30',
        RUNPOD_BOOT_GRACE_MINUTES: '0',
        MAX_RUNTIME_MINUTES: '0.2',
      },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function blindRunStopsThePod(podId: string, listFails: boolean): Promise<void> {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: podId, status: 'RUNNING', vllmReady: true });
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'the pod seen up and ready',
    );
    const blindFrom = Date.now();
    await addFault(stack, { route: 'metrics', podId, kind: 'unreadable', times: FOREVER });
    await addFault(stack, { route: 'observe', podId, kind: 'unreadable', times: FOREVER });
    if (listFails) await addFault(stack, { route: 'list', kind: 'unreadable', times: FOREVER });

    // The stop tick reads Unknown like every blind tick, and leaves the phase Down.
    const stopTick = await waitForTick(
      monitors,
      (t) => t.at > blindFrom && t.signal === 'Unknown' && t.phase === 'Down',
      EVENT_DEADLINE_MS,
      'a blind tick that stopped the pod',
    );
    const blind = tickLines(monitors()).filter((t) => t.at > blindFrom && t.at < stopTick.at);
    expect(blind.length).toBeGreaterThan(0);
    expect(blind.every((t) => t.signal === 'Unknown')).toBe(true);
    const stops = (await actions(stack)).filter((a) => a.action === 'Stop' && a.podId === podId);
    expect(stops.map((a) => `${a.trigger} ok=${a.ok}`)).toEqual(['runtime-cap ok=true']);
    await eventually(
      async () => ((await simPod(stack, podId)).status === 'EXITED' ? true : undefined),
      EVENT_DEADLINE_MS,
      'the pod exited',
    );
    expect((await podStatus(stack)).runtimeCapAt ?? null).toBeNull();
  }

  it('stops the pod the list shows billing while every scrape and per-pod read fails', async () => {
    await blindRunStopsThePod('blind-reads-pod', false);
  });

  it('stops the pod last seen up while the list fails as well', async () => {
    await blindRunStopsThePod('blind-list-pod', true);
  });
});
