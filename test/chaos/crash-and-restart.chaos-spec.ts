import { eventually } from '../support/app-process';
import { clearSimCalls, resetSim, seedPod, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN } from '../support/test-env';
import { FAST_IDLE_ENV, IDLE_TEST_TIMINGS, tickLines } from '../idle/support/idle-harness';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';
import { OwnedRedis } from './support/owned-redis';

/**
 * Processes dying at the worst moment: the waker between create and RUNNING,
 * Redis itself in the middle of a wake, an idle monitor in the middle of an
 * idle streak. Each case ends with the audit: what the simulator bills and
 * the writes it saw, against what podwarden believes and recorded.
 */
const SLOW_BOOT = {
  provisioningMs: 4000,
  startingMs: 500,
  gpuAttachMs: 100,
  modelLoadMs: 500,
  chatMs: 200,
  terminateMs: 0,
};

type LastWake = { attemptId: string; outcome: string } | null;
const lastWake = async (stack: Stack): Promise<LastWake> =>
  (await stack.api<{ lastWake: LastWake }>('GET', '/api/pods/qwen')).body.lastWake;

describe('chaos: crashes and restarts', () => {
  let redis: OwnedRedis;
  let stack: Stack;

  beforeAll(async () => {
    redis = await OwnedRedis.start();
    stack = await Stack.start({
      name: 'chaos-crash',
      wakers: 1,
      env: { REDIS_URL: redis.url, WAKE_JOB_LOCK_MS: '2000', WAKE_REQUEST_WAIT_SECONDS: '2' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  const beginCase = async (timings = SLOW_BOOT): Promise<number> => {
    await resetSim(stack, { timings });
    await clearSimCalls(stack);
    return Date.now();
  };

  const createSeen = () =>
    eventually(
      async () => ((await simWrites(stack)).includes('POST /pods') ? true : undefined),
      30_000,
      'the create',
    );

  const servingPod = () =>
    eventually(
      async () => {
        const pods = await simPods(stack);
        return pods.length > 0 && pods.every((p) => p.status === 'RUNNING') ? pods : undefined;
      },
      60_000,
      'the pod RUNNING',
    );

  chaosCase(
    'kill -9 the waker between create and RUNNING, restart it: one pod bills, history says so',
    true,
    async () => {
      const since = await beginCase();
      void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await createSeen();
      await stack.wakers[0].kill9();
      await stack.startWaker();
      const pods = await servingPod();
      const wake = await eventually(
        async () => (await lastWake(stack)) ?? undefined,
        60_000,
        'the wake recorded',
      );

      expect(pods).toHaveLength(1);
      expect(wake.outcome).toBe('Succeeded');
      expect(await simWrites(stack)).toEqual(['POST /pods']);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  chaosCase(
    'Redis killed (-9) and restarted during a wake: no job lost, no second create',
    true,
    async () => {
      const since = await beginCase();
      const before = await lastWake(stack);
      void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await createSeen();
      await redis.kill9();
      await redis.up();
      await servingPod();
      const wake = await eventually(
        async () => {
          const seen = await lastWake(stack);
          return seen !== null && seen.attemptId !== before?.attemptId ? seen : undefined;
        },
        90_000,
        'the wake recorded after the restart',
      );

      expect(['Succeeded']).toContain(wake.outcome);
      expect(await simWrites(stack)).toEqual(['POST /pods']);
      expect(stack.wakers.filter((w) => w.running)).toHaveLength(1);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  chaosCase('Redis paused (SIGSTOP) for five seconds during a wake: no second create', false, async () => {
    const since = await beginCase();
    void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
    await createSeen();
    redis.pause();
    await new Promise((r) => setTimeout(r, 5000));
    redis.resume();
    await servingPod();
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    expectCleanAudit(await settledAudit(stack, since));
  });
});

describe('chaos: the idle monitor killed mid-streak', () => {
  let redis: OwnedRedis;
  let stack: Stack;

  beforeAll(async () => {
    redis = await OwnedRedis.start();
    stack = await Stack.start({
      name: 'chaos-idle',
      idleMonitors: 2,
      env: { ...FAST_IDLE_ENV, REDIS_URL: redis.url },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  chaosCase('kill -9 the monitor that ticked mid-streak, two replicas again: one stop', true, async () => {
    await resetSim(stack, { timings: IDLE_TEST_TIMINGS });
    await clearSimCalls(stack);
    const since = Date.now();
    const podId = await seedPod(stack, { status: 'RUNNING' });
    const streaking = await eventually(
      async () => tickLines(stack.idleMonitors).find((t) => t.signal === 'Idle' && t.idleStreak >= 2),
      60_000,
      'an idle streak of two',
    );
    const victim = stack.idleMonitors.find((m) => m.name === streaking.monitor);
    expect(victim).toBeDefined();
    await victim?.kill9();
    await stack.startIdleMonitor();
    await eventually(
      async () => ((await simWrites(stack)).some((w) => w.endsWith('stop')) ? true : undefined),
      60_000,
      'the idle stop',
    );
    // Let the replicas tick on past the stop: a second stop would show up here.
    const stopTicks = () =>
      tickLines(stack.idleMonitors).filter((t) => t.at > Date.now() - 60_000 && t.phase === 'Down');
    await eventually(
      async () => (stopTicks().length >= 3 ? true : undefined),
      60_000,
      'three ticks after the stop',
    );

    expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action stop`]);
    const report = await settledAudit(stack, since);
    expect(report.billing).toEqual([]);
    expectCleanAudit(report);
  });
});
