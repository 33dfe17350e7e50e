import { eventually, type AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { Stack, VOLUME_ID } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  addFault,
  emptyVolume,
  podIdOfCall,
  seedPod,
  simPod,
  stopCalls,
  waitForTick,
} from '../idle/support/idle-harness';

/**
 * A stop RunPod accepts is only its word. Here the simulator answers the stop
 * 200 and ignores it: the stop route and GET say stopConfirmed false, the idle
 * monitor sees the pod still RUNNING past STOP_CONFIRM_TICKS ticks, stops it
 * again (a second POST action stop), logs that at Error and records it; once
 * the fault is cleared the re-stop takes and GET says stopConfirmed true.
 * The monitor's /metrics shows the unconfirmed stop meanwhile (podwarden_stops_unconfirmed).
 * Idle window, boot grace and runtime cap are out of reach, so nothing else stops the pod.
 */
// The operator's stop and the monitor's first re-stop are ignored; then the fault is spent (cleared).
const IGNORED_STOPS = 2;
const POD_ID = 'ignored-stop-pod';

jest.setTimeout(180_000);

describe('confirmed stops', () => {
  let stack: Stack;
  let monitor: AppProcess;
  let healthPort: number;
  const monitors = (): AppProcess[] => [monitor];

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-confirmed-stop',
      idleMonitors: 0,
      env: {
        ...FAST_IDLE_ENV,
        IDLE_MINUTES: '30',
        RUNPOD_BOOT_GRACE_MINUTES: '0',
        MAX_RUNTIME_MINUTES: '0',
        STOP_CONFIRM_TICKS: '2',
        STOP_CONFIRM_MAX_RESTOPS: '2',
      },
    });
    healthPort = await freePort();
    monitor = await stack.startIdleMonitor({ HEALTH_PORT: String(healthPort) });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The idle monitor's /metrics (HEALTH_PORT) once it shows `sample`. */
  const scrapeShowing = (sample: string): Promise<string> =>
    eventually(
      async () => {
        const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
        return text.split('\n').includes(sample) ? text : undefined;
      },
      EVENT_DEADLINE_MS,
      `/metrics showing ${sample}`,
    );

  const stopConfirmed = async (): Promise<unknown> =>
    (await stack.api<{ stopConfirmed: unknown }>('GET', '/api/pods/qwen')).body.stopConfirmed;

  it('a stop the simulator accepts but ignores is unconfirmed, re-stopped at Error, recorded, then confirmed', async () => {
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: POD_ID, status: 'RUNNING', vllmReady: true });
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'the pod seen up and ready',
    );
    expect(await stopConfirmed()).toBeNull();
    await addFault(stack, { route: 'action', podId: POD_ID, kind: 'ignore', times: IGNORED_STOPS });

    const stop = await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({
      name: 'qwen',
      ok: true,
      pods: [{ podId: POD_ID, ok: true }],
      stopConfirmed: false,
    });
    expect(await stopConfirmed()).toBe(false);

    // The monitor's own re-stop: the second POST action stop the simulator sees.
    await eventually(
      async () =>
        (await stopCalls(stack)).filter((c) => podIdOfCall(c) === POD_ID).length >= 2 ? true : undefined,
      EVENT_DEADLINE_MS,
      'a second stop of the ignored pod',
    );
    expect((await simPod(stack, POD_ID)).status).toBe('RUNNING');
    const restopLine = await eventually(
      async () =>
        monitor.lines.find((l) => l.json?.level === 50 && l.json.podId === POD_ID && l.json.attempt === 1),
      EVENT_DEADLINE_MS,
      'the re-stop logged at Error',
    );
    expect(restopLine.json).toMatchObject({
      pod: 'qwen',
      unconfirmedStop: true,
      maxRestops: 2,
      trigger: 'manual',
    });
    expect(restopLine.msg).toMatch(
      /not confirmed: still RUNNING 2 ticks after it was accepted; re-stopping \(attempt 1 of 2\)/,
    );

    const stops = await eventually(
      async () => {
        const found = (await actions(stack)).filter((a) => a.action === 'Stop' && a.podId === POD_ID);
        return found.length >= 2 ? found.reverse() : undefined;
      },
      EVENT_DEADLINE_MS,
      'two Stop records',
    );
    expect(stops.slice(0, 2).map((a) => `${a.trigger} ok=${String(a.ok)}`)).toEqual([
      'manual ok=true',
      'manual ok=true',
    ]);
    expect(stops[1].detail).toMatch(/^re-stop 1 of 2 of an unconfirmed stop: the manual stop accepted at /);

    // On /metrics meanwhile: the stop is unconfirmed and the pod still bills on its volume.
    const unconfirmed = await scrapeShowing('podwarden_stops_unconfirmed 1');
    expect(unconfirmed).toContain(`podwarden_pods_billing{pod="qwen",volume="${VOLUME_ID}"} 1`);

    // The fault spent: the monitor's second re-stop takes, and the next tick confirms it.
    await eventually(
      async () => ((await stopConfirmed()) === true ? true : undefined),
      EVENT_DEADLINE_MS,
      'stopConfirmed true',
    );
    expect((await simPod(stack, POD_ID)).status).toBe('EXITED');
    expect((await stopCalls(stack)).filter((c) => podIdOfCall(c) === POD_ID)).toHaveLength(3);
    expect(monitor.messages()).toContain(`stop of ${POD_ID} confirmed (down)`);
    const confirmed = await scrapeShowing('podwarden_stops_unconfirmed 0');
    expect(confirmed).toContain(`podwarden_pods_billing{pod="qwen",volume="${VOLUME_ID}"} 0`);
  });
});
