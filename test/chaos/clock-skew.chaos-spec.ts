import { eventually } from '../support/app-process';
import { skewedClock } from '../support/clock-skew';
import { FAST_TIMINGS, clearSimCalls, injectFault, resetSim, seedPod } from '../support/sim-admin';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  WINDOW_TICKS,
  actions,
  formatTicks,
  requestsRunning,
  stopCalls,
  ticksSince,
} from '../idle/support/idle-harness';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase } from './support/chaos-case';
import {
  IDLE_METRICS,
  MINUTE,
  realTime,
  servingPodId,
  stopCallAt,
  streamThrough,
} from './support/clock-probes';

/**
 * One app's wall clock minutes off Redis's and the other apps' (the
 * skewed-clock preload; the simulator, like RunPod, keeps the real time).
 * The proxy's in-flight leases live on Redis's clock, and idle windows, boot
 * grace and the runtime cap are counted on the idle monitor's own ticks and
 * clock. Each case runs on a stack of its own, so its audit reads every
 * action row whatever clock stamped it. (The budget day and keep-alives:
 * clock-skew-day.chaos-spec.ts.)
 */
describe('chaos: an inference proxy three minutes behind', () => {
  let stack: Stack;
  let proxy: string;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'chaos-clock-proxy',
      wakers: 1,
      idleMonitors: 1,
      env: FAST_IDLE_ENV,
      perApp: { 'inference-proxy': skewedClock(-3 * MINUTE) },
    });
    proxy = await stack.startProxy({ PROXY_HOLD_SECONDS: '120' });
  });
  afterAll(() => stack?.stop());

  chaosCase(
    'a long stream through it keeps the pod up while the scrape reads idle; the idle stop comes once it ends',
    true,
    async () => {
      await resetSim(stack, { timings: FAST_TIMINGS });
      await clearSimCalls(stack);
      const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;
      // Cold: the proxy wakes the pod, holds the request, then streams from it.
      const stream = await streamThrough(proxy, 3_600_000);
      const podId = await eventually(
        async () => {
          const id = await servingPodId(stack);
          return id !== undefined && (await requestsRunning(stack, id)) === 1 ? id : undefined;
        },
        EVENT_DEADLINE_MS,
        'the stream in flight',
      );
      await injectFault(stack, {
        route: 'metrics',
        podId,
        kind: 'status',
        status: 200,
        body: IDLE_METRICS,
        times: 100_000,
      });
      const blindFrom = Date.now();
      // Twice the idle window of ticks whose scrape says idle: only the proxy's lease says busy.
      await eventually(
        async () => (ticksSince(monitors(), blindFrom).length >= 2 * WINDOW_TICKS ? true : undefined),
        2 * EVENT_DEADLINE_MS,
        'twice the idle window of ticks',
      );
      const during = ticksSince(monitors(), blindFrom);
      expect(await stopCalls(stack)).toEqual([]);
      expect(during.map((t) => `${t.signal}/${t.phase}/${t.idleStreak}`)).toEqual(
        during.map(() => 'Busy/Ready/0'),
      );

      // The stream ends (the simulator's clock sped up); the idle window runs from there.
      await stack.simRequest('PUT', '/_sim/config', { speed: 100_000 });
      const text = await stream.done;
      await stack.simRequest('PUT', '/_sim/config', { speed: 1 });
      const endedAt = Date.now();
      expect(text.trim().endsWith('data: [DONE]')).toBe(true);
      const stoppedAt = await stopCallAt(stack, podId, 2 * EVENT_DEADLINE_MS);
      const after = ticksSince(monitors(), endedAt).filter((t) => t.scheduledAt! <= stoppedAt);
      expect(Math.max(...after.map((t) => t.idleStreak))).toBe(WINDOW_TICKS - 1);
      expect(stoppedAt - endedAt).toBeGreaterThanOrEqual((WINDOW_TICKS - 1) * 1000);
      expect(await stopCalls(stack)).toHaveLength(1);
      expectCleanAudit(await settledAudit(stack, 0));
    },
  );
});

describe.each([
  ['behind', -4 * MINUTE],
  ['ahead', 4 * MINUTE],
])('chaos: an idle monitor four minutes %s', (_, skewMs) => {
  const CAP_MS = 30_000;
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({
      name: `chaos-clock-idle${skewMs < 0 ? 'm' : 'p'}`,
      idleMonitors: 1,
      env: {
        ...FAST_IDLE_ENV,
        RUNPOD_BOOT_GRACE_MINUTES: '0.05',
        MAX_RUNTIME_MINUTES: String(CAP_MS / MINUTE),
      },
      perApp: { 'idle-monitor': skewedClock(skewMs) },
    });
  });
  afterAll(() => stack?.stop());

  /** Seeds a pod and waits for its stop: the ticks from the seed to the stop, and the stop's real time. */
  async function untilStopped(seed: Record<string, unknown>, timeoutMs: number) {
    const from = Date.now();
    const podId = await seedPod(stack, { status: 'RUNNING', ...seed });
    const stoppedAt = await stopCallAt(stack, podId, timeoutMs);
    await eventually(
      async () => (ticksSince(monitors(), stoppedAt + skewMs).length > 0 ? true : undefined),
      EVENT_DEADLINE_MS,
      'a tick after the stop',
    );
    const ticks = ticksSince(monitors(), from + skewMs).filter((t) => realTime(t, skewMs) <= stoppedAt + 500);
    const firstUp = ticks.find((t) => t.signal !== 'NotRunning');
    if (firstUp === undefined) throw new Error(`no up tick before the stop:\n${formatTicks(ticks)}`);
    return { podId, ticks, stoppedAt, firstUpAt: realTime(firstUp, skewMs) };
  }

  chaosCase(
    'boot grace, the idle window and the runtime cap stop on their own count and time, not early or late by the skew',
    false,
    async () => {
      await resetSim(stack, { timings: FAST_TIMINGS });
      await clearSimCalls(stack);

      // Boot grace 0.05 min at 1 s ticks: the third booting tick stops a model that never answers.
      const neverReady = await untilStopped(
        { id: 'never-ready', vllmReady: false, behaviour: 'never-ready' },
        2 * EVENT_DEADLINE_MS,
      );
      const booting = neverReady.ticks.filter((t) => t.phase === 'Booting');
      expect(booting.map((t) => t.bootingTicks)).toEqual([1, 2]);

      // The idle window: six idle observations, the stop on the sixth, about six seconds in.
      const idle = await untilStopped({ id: 'idle-pod', vllmReady: true }, 2 * EVENT_DEADLINE_MS);
      expect(Math.max(...idle.ticks.map((t) => t.idleStreak))).toBe(WINDOW_TICKS - 1);
      expect(idle.stoppedAt - idle.firstUpAt).toBeGreaterThanOrEqual((WINDOW_TICKS - 1) * 1000);
      expect(idle.stoppedAt - idle.firstUpAt).toBeLessThan(MINUTE);

      // The runtime cap (30 s) on a pod busy forever: from the first up tick, on the monitor's own clock.
      const phantom = await untilStopped(
        { id: 'phantom-pod', behaviour: 'phantom-busy' },
        CAP_MS + 2 * EVENT_DEADLINE_MS,
      );
      expect(phantom.ticks.filter((t) => t.phase === 'Ready').every((t) => t.signal === 'Busy')).toBe(true);
      expect(phantom.stoppedAt - phantom.firstUpAt).toBeGreaterThanOrEqual(CAP_MS - 1000);
      expect(phantom.stoppedAt - phantom.firstUpAt).toBeLessThan(CAP_MS + EVENT_DEADLINE_MS);

      const stops = (await actions(stack)).filter((a) => a.action === 'Stop').reverse();
      expect(stops.map((a) => [a.podId, a.trigger])).toEqual([
        ['never-ready', 'boot-grace'],
        ['idle-pod', 'idle'],
        ['phantom-pod', 'runtime-cap'],
      ]);
      expectCleanAudit(await settledAudit(stack, 0));
    },
  );
});
