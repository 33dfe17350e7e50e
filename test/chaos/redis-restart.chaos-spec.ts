import Redis from 'ioredis';
import { eventually } from '../support/app-process';
import { clearSimCalls, resetSim, seedPod, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN } from '../support/test-env';
import { FAST_IDLE_ENV, IDLE_TEST_TIMINGS, tickLines, ticksSince } from '../idle/support/idle-harness';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';
import { OwnedRedis } from './support/owned-redis';

/**
 * Redis itself killed (-9) and restarted while state that spans ticks or
 * wakes lives in it: an idle streak with its runtime-cap clock, and an open
 * daily-budget reservation. The owned redis-server fsyncs every write, so
 * what was acknowledged survives; the apps must pick it up where it was.
 */
type Status = { runtimeCapAt: string | null; spendToday: { reservedUsd: number; spentUsd: number } | null };
const status = async (stack: Stack) => (await stack.api<Status>('GET', '/api/pods/qwen')).body;

describe('chaos: Redis restarted during an idle streak', () => {
  let redis: OwnedRedis;
  let stack: Stack;

  beforeAll(async () => {
    redis = await OwnedRedis.start();
    stack = await Stack.start({
      name: 'chaos-redis-idle',
      idleMonitors: 1,
      // A longer window than the idle specs', so the streak spans the restart.
      env: { ...FAST_IDLE_ENV, IDLE_MINUTES: '0.25', MAX_RUNTIME_MINUTES: '60', REDIS_URL: redis.url },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  chaosCase(
    'kill -9 Redis mid-streak and restart it: the streak and the cap clock go on, one stop',
    true,
    async () => {
      await resetSim(stack, { timings: IDLE_TEST_TIMINGS });
      await clearSimCalls(stack);
      const since = Date.now();
      const podId = await seedPod(stack, { status: 'RUNNING' });
      const before = await eventually(
        async () => tickLines(stack.idleMonitors).find((t) => t.signal === 'Idle' && t.idleStreak >= 3),
        60_000,
        'an idle streak of three',
      );
      const capBefore = await eventually(
        async () => (await status(stack)).runtimeCapAt ?? undefined,
        30_000,
        'the cap',
      );
      await redis.kill9();
      await new Promise((r) => setTimeout(r, 2000));
      await redis.up();
      // The first idle tick after the restart carries the streak on, it does not begin again at 1.
      const after = await eventually(
        async () =>
          tickLines(stack.idleMonitors).find(
            (t) => t.at > Date.now() - 60_000 && t.at > before.at + 2500 && t.signal === 'Idle',
          ),
        60_000,
        'an idle tick after the restart',
      );
      expect(after.idleStreak).toBeGreaterThan(before.idleStreak);
      expect((await status(stack)).runtimeCapAt).toBe(capBefore);
      await eventually(
        async () => ((await simWrites(stack)).some((w) => w.endsWith('stop')) ? true : undefined),
        90_000,
        'the idle stop',
      );
      // Ticks after the stop took effect see the pod down and stop nothing more.
      const stopSeenAt = Date.now();
      await eventually(
        async () =>
          ticksSince(stack.idleMonitors, stopSeenAt).filter((t) => t.signal === 'NotRunning').length >= 2
            ? true
            : undefined,
        60_000,
        'two ticks that saw the pod down',
      );

      expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action stop`]);
      expect(stack.idleMonitors.every((m) => m.running)).toBe(true);
      const report = await settledAudit(stack, since);
      expect(report.billing).toEqual([]);
      expectCleanAudit(report);
    },
  );
});

describe('chaos: Redis restarted during a budget reservation', () => {
  let redis: OwnedRedis;
  let stack: Stack;

  beforeAll(async () => {
    redis = await OwnedRedis.start();
    stack = await Stack.start({
      name: 'chaos-redis-budget',
      wakers: 1,
      env: {
        REDIS_URL: redis.url,
        DAILY_BUDGET_USD: '10',
        WAKE_JOB_LOCK_MS: '2000',
        WAKE_REQUEST_WAIT_SECONDS: '2',
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  chaosCase(
    'kill -9 Redis with a reservation open mid-wake and restart it: one create, the ledger exact',
    true,
    async () => {
      await resetSim(stack, {
        timings: {
          provisioningMs: 4000,
          startingMs: 500,
          gpuAttachMs: 100,
          modelLoadMs: 500,
          chatMs: 200,
          terminateMs: 0,
        },
      });
      await clearSimCalls(stack);
      const since = Date.now();
      void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await stack.wakers[0].waitForMessage('of the daily budget', 60_000);
      const ledger = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const openBefore = await ledger.hgetall(`${stack.prefix}:budget:open`);
      ledger.disconnect();
      expect(Object.keys(openBefore)).toEqual(['qwen']);
      await redis.kill9();
      await new Promise((r) => setTimeout(r, 2000));
      await redis.up();
      await eventually(
        async () => ((await simWrites(stack)).includes('POST /pods') ? true : undefined),
        60_000,
        'the create',
      );
      const wake = await eventually(
        async () =>
          (await stack.api<{ lastWake: { outcome: string } | null }>('GET', '/api/pods/qwen')).body
            .lastWake ?? undefined,
        90_000,
        'the wake recorded',
      );

      expect(wake.outcome).toBe('Succeeded');
      expect((await simWrites(stack)).filter((w) => w === 'POST /pods')).toHaveLength(1);
      const after = new Redis(redis.url, { maxRetriesPerRequest: 1 });
      const openAfter = await after.hgetall(`${stack.prefix}:budget:open`);
      after.disconnect();
      // Exactly the one reservation, unchanged: the restart neither lost it nor took a second.
      expect(openAfter).toEqual(openBefore);
      expect((await status(stack)).spendToday?.reservedUsd).toBeGreaterThan(0);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );
});
