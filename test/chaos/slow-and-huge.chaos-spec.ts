import { eventually } from '../support/app-process';
import { clearSimCalls, injectFault, resetSim, seedPod, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { REDIS_URL, TEST_OPERATOR_TOKEN } from '../support/test-env';
import { FAST_IDLE_ENV, IDLE_TEST_TIMINGS, tickLines } from '../idle/support/idle-harness';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';
import { wakeReaches } from './support/crash-probes';

/**
 * Answers that never end well: a 50 MB /metrics body that says "idle" in its
 * first lines, a /metrics that drips a line a second for a minute, and a
 * RunPod control plane that answers every call in 30 s for a minute. A body
 * podwarden cannot read in full within its cap and deadline is Unknown, never
 * idle; a control plane slower than the client timeout never buys a second pod.
 */
describe('chaos: hostile /metrics bodies', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'chaos-metrics', idleMonitors: 1, env: FAST_IDLE_ENV });
  });
  afterAll(() => stack?.stop());

  /** Twenty seconds of the fault (about twenty ticks, three idle windows), then plain /metrics again. */
  const underFault = async (fault: Record<string, unknown>) => {
    await resetSim(stack, { timings: IDLE_TEST_TIMINGS });
    await clearSimCalls(stack);
    const since = Date.now();
    const podId = await seedPod(stack, { status: 'RUNNING' });
    await injectFault(stack, { route: 'metrics', podId, forMs: 20_000, ...fault });
    const monitor = stack.idleMonitors[0];
    const faultEnds = since + 20_000;
    await eventually(
      async () => (tickLines([monitor]).some((t) => t.at > faultEnds) ? true : undefined),
      120_000,
      'ticks past the fault',
    );
    const during = tickLines([monitor]).filter((t) => t.at > since + 6_000 && t.at < faultEnds);
    // Only after the fault ends may the pod go idle and be stopped.
    await eventually(
      async () => ((await simWrites(stack)).some((w) => w.endsWith('stop')) ? true : undefined),
      90_000,
      'the idle stop once /metrics reads again',
    );
    return { since, podId, during, monitor };
  };

  chaosCase(
    'a 50 MB /metrics that says idle up front: Unknown for as long as it lasts, no stop',
    true,
    async () => {
      const { since, podId, during, monitor } = await underFault({
        kind: 'huge-body',
        bytes: 50 * 1024 * 1024,
      });

      expect(during.length).toBeGreaterThan(3);
      expect(during.filter((t) => t.signal === 'Idle')).toEqual([]);
      // A running pod whose /metrics cannot be read is UnreachableButRunning: not idle, no streak.
      expect(during.every((t) => ['UnreachableButRunning', 'Unknown', 'Booting'].includes(t.signal))).toBe(
        true,
      );
      expect(during.every((t) => t.idleStreak === 0)).toBe(true);
      expect(monitor.running).toBe(true);
      expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action stop`]);
      // The read stopped at the client's cap (the RunPod client logs on stdout or stderr by level).
      const logged = [...monitor.lines.map((l) => l.raw), ...monitor.stderr].join('\n');
      expect(logged).toMatch(/body over \d+ bytes/);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  chaosCase('a /metrics dripping a line a second: Unknown, no stop, no hung tick', false, async () => {
    const { since, podId, during, monitor } = await underFault({
      kind: 'slow-drip',
      intervalMs: 1000,
      durationMs: 60_000,
    });

    expect(during.length).toBeGreaterThan(1);
    expect(during.filter((t) => t.signal === 'Idle')).toEqual([]);
    expect(monitor.running).toBe(true);
    expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action stop`]);
    expectCleanAudit(await settledAudit(stack, since));
  });
});

describe('chaos: RunPod answering in 30 s for a minute', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'chaos-slow-cp',
      wakers: 1,
      env: { RUNPOD_TIMEOUT_MS: '10000', WAKE_REQUEST_WAIT_SECONDS: '2' },
    });
  });
  afterAll(() => stack?.stop());

  type LastWake = { attemptId: string; outcome: string } | null;
  const lastWake = async (): Promise<LastWake> =>
    (await stack.api<{ lastWake: LastWake }>('GET', '/api/pods/qwen')).body.lastWake;

  chaosCase(
    'the weather turns as the create goes out: no second create, the job ends recorded, the next wake adopts the pod',
    false,
    async () => {
      await resetSim(stack);
      await clearSimCalls(stack);
      const since = Date.now();
      const before = await lastWake();
      // A short hold on the catalog read: the weather turns while the wake is inside it.
      await injectFault(stack, { route: 'catalog', kind: 'delay', delayMs: 3000 });
      void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await wakeReaches(stack, REDIS_URL, 'reading the GPU catalog');
      for (const route of ['list', 'observe', 'create', 'action', 'terminate']) {
        await injectFault(stack, { route, kind: 'delay', delayMs: 30_000, forMs: 60_000 });
      }
      const first = await eventually(
        async () => {
          const seen = await lastWake();
          return seen !== null && seen.attemptId !== before?.attemptId ? seen : undefined;
        },
        180_000,
        'the first wake recorded',
      );
      expect(first.outcome).toBe('Failed');
      // The slow create takes effect when its 30 s answer is due: its pod is the event to wait for.
      await eventually(
        async () => ((await simPods(stack)).length > 0 ? true : undefined),
        90_000,
        'the pod the slow create placed',
      );
      expect((await simWrites(stack)).filter((w) => w === 'POST /pods')).toHaveLength(1);

      // The weather ends (the faults cleared): a second start finds the pod the slow create placed.
      await stack.simRequest('DELETE', '/_sim/faults');
      await startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      const second = await eventually(
        async () => {
          const seen = await lastWake();
          return seen !== null && seen.attemptId !== first.attemptId ? seen : undefined;
        },
        120_000,
        'the second wake recorded',
      );

      expect(['Succeeded', 'AlreadyRunning']).toContain(second.outcome);
      expect((await simWrites(stack)).filter((w) => w === 'POST /pods')).toHaveLength(1);
      expect((await simPods(stack)).filter((p) => p.status === 'RUNNING')).toHaveLength(1);
      expectCleanAudit(await settledAudit(stack, since));
    },
    400_000,
  );
});
