import { eventually, type AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { RedisServer } from '../support/redis-server';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  messagesWith,
  podIdOfCall,
  resetSim,
  seedPod,
  simCalls,
  stopCalls,
  ticksSince,
  waitForStopAndTick,
  waitForTick,
} from './support/idle-harness';

interface Probe {
  readonly status: number;
  readonly body: { details?: Record<string, { status: string; [field: string]: unknown }> };
}

/**
 * A Redis that comes back empty (FLUSHALL here; a restart without persistence
 * or a failover to an empty replica leave the same) under a running stack: the
 * idle monitor restores its tick scheduler, so a ready idle pod is still
 * stopped, and a wake after the flush still creates exactly one pod. The Redis
 * is this spec's own redis-server: the shared one is never flushed.
 */
describe('a Redis that comes back empty', () => {
  let redis: RedisServer;
  let stack: Stack;
  let monitor: AppProcess;
  let healthPort: number;
  const monitors = (): readonly AppProcess[] => stack.idleMonitors;

  beforeAll(async () => {
    redis = await RedisServer.start(['--maxmemory-policy', 'noeviction']);
    healthPort = await freePort();
    stack = await Stack.start({
      name: 'empty-redis',
      wakers: 1,
      // A fifteen-tick window, so the streak is well under way, not over, when Redis is flushed.
      env: { ...FAST_IDLE_ENV, IDLE_MINUTES: '0.25', REDIS_URL: redis.url },
    });
    monitor = await stack.startIdleMonitor({ HEALTH_PORT: String(healthPort) });
  });
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
  });

  const probe = async (): Promise<Probe> => {
    const response = await fetch(`http://127.0.0.1:${healthPort}/health/ready`);
    return { status: response.status, body: (await response.json()) as Probe['body'] };
  };
  const sample = async (name: string): Promise<number> => {
    const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    return match === null ? Number.NaN : Number(match[1]);
  };

  it('FLUSHALL with a ready idle pod: the scheduler is restored and the pod is still idle-stopped', async () => {
    await resetSim(stack);
    const seededAt = Date.now();
    const podId = await seedPod(stack, { status: 'RUNNING' });
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > seededAt && t.phase === 'Ready' && t.idleStreak >= 2,
      EVENT_DEADLINE_MS,
      'the pod ready and idle for two ticks',
    );
    expect(await stopCalls(stack)).toEqual([]);
    const restoredBefore = await sample('podwarden_idle_scheduler_restored_total');

    const flushedAt = Date.now();
    expect(await redis.command('FLUSHALL')).toBe('OK');

    // Ticks again: from a scheduler restored by the monitor (nothing else re-creates it).
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > flushedAt,
      EVENT_DEADLINE_MS,
      'a tick after the flush',
    );
    const { stops, stopTick } = await waitForStopAndTick(stack, podId, 3 * EVENT_DEADLINE_MS);
    expect(stops.map((a) => [a.action, a.trigger, a.ok])).toEqual([['Stop', 'idle', true]]);
    expect(stopTick.at).toBeGreaterThan(flushedAt);
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual([podId]);
    expect(ticksSince(monitors(), flushedAt).length).toBeGreaterThanOrEqual(2);

    expect(messagesWith([monitor], 'idle tick scheduler was missing from Redis')).not.toHaveLength(0);
    expect(await sample('podwarden_idle_scheduler_restored_total')).toBeGreaterThan(restoredBefore);
    expect(await sample('podwarden_idle_scheduler_present')).toBe(1);
    const ready = await probe();
    expect(ready.status).toBe(200);
    expect(ready.body.details).toMatchObject({ scheduler: { status: 'up' }, ticks: { status: 'up' } });
  });

  it('a wake after a flush creates exactly one pod, however many starts ask for it', async () => {
    await resetSim(stack);
    await stack.simRequest('DELETE', '/_sim/calls');
    expect(await redis.command('FLUSHALL')).toBe('OK');

    const starts = await Promise.all(
      [0, 1, 2].map(() => stack.api<{ outcome: string }>('POST', '/api/pods/qwen/start', { token: 'wake' })),
    );
    expect(starts.map((s) => s.status).every((status) => status === 200 || status === 202)).toBe(true);
    const lastWake = await eventually(
      async () => {
        const answer = await stack.api<{ lastWake: { outcome: string } | null }>('GET', '/api/pods/qwen');
        return answer.body.lastWake?.outcome === 'Succeeded' ? answer.body.lastWake : undefined;
      },
      3 * EVENT_DEADLINE_MS,
      'the wake succeeded',
    );
    expect(lastWake.outcome).toBe('Succeeded');

    const writes = (await simCalls(stack)).filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /pods']);
  });

  it('readiness and /metrics show the scheduler missing while Redis refuses to restore it, and recover once it can', async () => {
    await resetSim(stack);
    const restoredBefore = await sample('podwarden_idle_scheduler_restored_total');
    const connection = redis.connect();
    try {
      // Emptied, then refusing writes (a primary without its replicas): reads answer, the restore cannot.
      await connection.multi().flushall().config('SET', 'min-replicas-to-write', '1').exec();
      const down = await eventually(
        async () => {
          const seen = await probe();
          return seen.status === 503 ? seen : undefined;
        },
        EVENT_DEADLINE_MS,
        'readiness false with the scheduler missing',
      );
      expect(down.body.details).toMatchObject({
        redis: { status: 'up' },
        worker: { status: 'up' },
        ticks: { status: 'up' },
        scheduler: { status: 'down', presence: 'missing' },
      });
      expect(await sample('podwarden_idle_scheduler_present')).toBe(0);
      await monitor.waitForMessage('idle tick scheduler missing and not restored', EVENT_DEADLINE_MS);
    } finally {
      await connection.config('SET', 'min-replicas-to-write', '0');
      connection.disconnect();
    }

    const up = await eventually(
      async () => {
        const seen = await probe();
        return seen.status === 200 ? seen : undefined;
      },
      EVENT_DEADLINE_MS,
      'readiness true once the scheduler is restored',
    );
    expect(up.body.details).toMatchObject({ scheduler: { status: 'up', presence: 'present' } });
    expect(await sample('podwarden_idle_scheduler_present')).toBe(1);
    expect(await sample('podwarden_idle_scheduler_restored_total')).toBe(restoredBefore + 1);
  });
});
