import { Queue } from 'bullmq';
import { IDLE_TICK_QUEUE } from '@podwarden/platform';
import { eventually, type AppProcess } from '../support/app-process';
import { stepClock, steppedClock } from '../support/clock-skew';
import { freePort } from '../support/free-port';
import { RedisServer } from '../support/redis-server';
import { resetSim, seedPod } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_API_KEY, TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN } from '../support/test-env';

const SHUTDOWN_GRACE_MS = 3000;
/** Ticks are stale after three intervals plus a minute of slack: 63 s without one at CHECK_SECONDS=1. */
const STALE_AFTER_MS = 3 * 1000 + 60_000;
/** How far the idle monitor's clock is stepped once its ticks are paused: to a few seconds short of stale. */
const CLOCK_STEP_MS = STALE_AFTER_MS - 10_000;

interface Probe {
  readonly status: number;
  readonly body: { status?: string; details?: Record<string, { status: string; ageMs?: number | null }> };
}

/**
 * The workers' HEALTH_PORT as an orchestrator sees it: /metrics after real
 * work, readiness while Redis is there, when the idle ticks stop and after
 * Redis goes away, and a SIGTERM during the outage. The Redis is this spec's own redis-server, killed mid-test.
 */
describe('worker metrics and readiness on HEALTH_PORT', () => {
  let redis: RedisServer;
  let stack: Stack;
  let waker: AppProcess;
  let monitor: AppProcess;
  let wakerPort: number;
  let monitorPort: number;

  beforeAll(async () => {
    redis = await RedisServer.start();
    stack = await Stack.start({
      name: 'ops-health',
      env: { REDIS_URL: redis.url, CHECK_SECONDS: '1', SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS) },
      // The monitor's wall clock can be stepped forward (stepped-clock.js): the minute of tick slack is not waited out.
      perApp: { 'idle-monitor': steppedClock(CLOCK_STEP_MS) },
    });
    await resetSim(stack);
    wakerPort = await freePort();
    monitorPort = await freePort();
    waker = await stack.startWaker({ HEALTH_PORT: String(wakerPort) });
    monitor = await stack.startIdleMonitor({ HEALTH_PORT: String(monitorPort) });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  const scrape = async (port: number): Promise<string> =>
    (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const probe = async (port: number): Promise<Probe> => {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
    return { status: response.status, body: (await response.json()) as Probe['body'] };
  };

  it('the waker counts its wake by outcome and the RunPod requests it made by route and status', async () => {
    const podId = await seedPod(stack, { status: 'EXITED' });
    const answer = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    expect(answer.body).toMatchObject({ outcome: 'Started', podId });

    const text = await eventually(
      async () => {
        const body = await scrape(wakerPort);
        return body.includes('podwarden_jobs_total{queue="wake",outcome="Started"} 1') ? body : undefined;
      },
      20_000,
      'the wake counted on the waker',
    );
    expect(text).toMatch(/podwarden_job_duration_seconds_count\{queue="wake"\} 1\n/);
    expect(text).toMatch(/podwarden_runpod_requests_total\{route="list",status="200"\} \d+/);
    expect(text).toMatch(/podwarden_runpod_requests_total\{route="start",status="200"\} 1\n/);
    expect(text).toMatch(/podwarden_waker_process_cpu_seconds_total/);
    for (const secret of [TEST_API_KEY, TEST_OPERATOR_TOKEN, TEST_WAKE_TOKEN, podId])
      expect(text).not.toContain(secret);
  });

  it('the idle monitor counts its ticks, their duration and the age of the last one', async () => {
    const text = await eventually(
      async () => {
        const body = await scrape(monitorPort);
        return /podwarden_jobs_total\{queue="idle-tick",outcome="completed"\} [2-9]/.test(body)
          ? body
          : undefined;
      },
      30_000,
      'two ticks counted on the idle monitor',
    );
    expect(text).toMatch(/podwarden_job_duration_seconds_bucket\{le="\+Inf",queue="idle-tick"\} \d+/);
    expect(text).toMatch(/podwarden_runpod_requests_total\{route="list",status="200"\} \d+/);
    const age = Number(/^podwarden_idle_last_tick_age_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(30);
  });

  it('both are ready while Redis answers and their worker takes jobs (and the idle ticks keep coming)', async () => {
    const wakerReady = await probe(wakerPort);
    const monitorReady = await probe(monitorPort);
    expect(wakerReady.status).toBe(200);
    expect(wakerReady.body.details).toMatchObject({ redis: { status: 'up' }, worker: { status: 'up' } });
    expect(monitorReady.status).toBe(200);
    expect(monitorReady.body.details).toMatchObject({
      redis: { status: 'up' },
      worker: { status: 'up' },
      ticks: { status: 'up' },
    });
  });

  it("the idle monitor's readiness goes false when its ticks stop (the tick queue paused in Redis), and true again once they resume", async () => {
    const ticks = new Queue(IDLE_TICK_QUEUE, {
      connection: { url: redis.url, maxRetriesPerRequest: null },
      prefix: stack.prefix,
    });
    try {
      await ticks.pause();
      // Stale after three ticks plus a minute of slack (CHECK_SECONDS=1 here). Rather than wait that minute
      // out, the monitor's clock is stepped forward to a few seconds short of it (the probe's tick age shows
      // the step landed); the last seconds without a tick are real, so only the paused ticks make it stale:
      // a tick completing every second keeps the age under the bound even after the step. The step waits
      // until the pause holds (no tick in flight, none completed for two seconds), so no tick completes after it.
      await eventually(
        async () => {
          if ((await ticks.getActiveCount()) > 0) return undefined;
          return ((await probe(monitorPort)).body.details?.ticks.ageMs ?? 0) >= 2_000 ? true : undefined;
        },
        20_000,
        'the paused ticks: none in flight, none completed for two seconds',
      );
      stepClock(monitor.pid);
      const stepped = await eventually(
        async () => {
          const seen = await probe(monitorPort);
          return (seen.body.details?.ticks.ageMs ?? 0) >= CLOCK_STEP_MS ? seen : undefined;
        },
        20_000,
        "the idle monitor's clock stepped forward",
      );
      expect(stepped.status).toBe(200);
      const stale = await eventually(
        async () => {
          const seen = await probe(monitorPort);
          return seen.status === 503 ? seen : undefined;
        },
        150_000,
        'the idle monitor not ready once its ticks stopped',
      );
      expect(stale.body.details).toMatchObject({
        redis: { status: 'up' },
        worker: { status: 'up' },
        ticks: { status: 'down' },
      });
      expect((await probe(wakerPort)).status).toBe(200);

      await ticks.resume();
      const ready = await eventually(
        async () => {
          const seen = await probe(monitorPort);
          return seen.status === 200 ? seen : undefined;
        },
        60_000,
        'the idle monitor ready again once ticks resume',
      );
      expect(ready.body.details).toMatchObject({ ticks: { status: 'up' } });
    } finally {
      await ticks.resume().catch(() => undefined);
      await ticks.close();
    }
  });

  it('readiness goes false when Redis goes away, liveness stays, and SIGTERM still exits 0 within the grace', async () => {
    await redis.kill();

    for (const port of [wakerPort, monitorPort]) {
      const down = await eventually(
        async () => {
          const seen = await probe(port);
          return seen.status === 503 ? seen : undefined;
        },
        20_000,
        `readiness on ${port} going false`,
      );
      expect(down.body.details?.redis.status).toBe('down');
      expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(200);
    }

    // exit 0 means the close finished before the shutdown deadline, which exits 1.
    for (const worker of [waker, monitor]) {
      const startedAt = Date.now();
      expect(await worker.stop(60_000)).toBe(0);
      const tookMs = Date.now() - startedAt;
      expect(tookMs).toBeLessThan(SHUTDOWN_GRACE_MS + 5000);
    }
  });
});
