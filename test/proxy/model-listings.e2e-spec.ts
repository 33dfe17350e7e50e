import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { connectTestRedis } from '@podwarden/testing';
import { sleep } from '../support/app-process';
import { clearSimCalls, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_INFERENCE_TOKEN } from '../support/test-env';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  WINDOW_TICKS,
  emptyVolume,
  formatTicks,
  podIdOfCall,
  seedPod,
  stopCalls,
  ticksSince,
  waitForTick,
} from '../idle/support/idle-harness';
import { MODEL, chatThrough } from './support/proxy-client';

/**
 * A chat UI that lists models on load, or a health checker polling
 * GET /v1/models every half second, through the inference proxy: a cold pod
 * is never woken by it (the list the pod last served answers, or 503), and a
 * ready pod is still idle-stopped a window after ready, as if nobody listed.
 */
jest.setTimeout(240_000);

const POLL_EVERY_MS = 500;

interface Poll {
  readonly at: number;
  readonly status: number;
  readonly retryAfter: string | null;
  readonly age: string | null;
  readonly text: string;
}

/** GET /v1/models every half second until stopped, each answer awaited before the next is due. */
function startPolling(proxyUrl: string): { stop(): Promise<Poll[]> } {
  let running = true;
  const polls: Poll[] = [];
  const loop = (async () => {
    while (running) {
      const at = Date.now();
      const response = await fetch(`${proxyUrl}/qwen/v1/models`, {
        headers: { Authorization: `Bearer ${TEST_INFERENCE_TOKEN}` },
      });
      const text = await response.text();
      const headers = response.headers;
      polls.push({
        at,
        status: response.status,
        retryAfter: headers.get('retry-after'),
        age: headers.get('age'),
        text,
      });
      await sleep(Math.max(0, at + POLL_EVERY_MS - Date.now()));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return polls;
    },
  };
}

async function pollFor(proxyUrl: string, ms: number): Promise<Poll[]> {
  const polling = startPolling(proxyUrl);
  await sleep(ms);
  return polling.stop();
}

describe('inference proxy: model listings never wake a pod and never keep it up', () => {
  let stack: Stack;
  let proxy: string;
  let redis: Redis;
  let wakeQueue: Queue;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  /** Every job the wake queue ever got under this stack's prefix (kept jobs included). */
  async function wakeJobs(): Promise<number> {
    const counts = await wakeQueue.getJobCounts();
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  function wakeRequests(): string[] {
    return stack.proxies.flatMap((p) => p.messages()).filter((m) => m.startsWith('wake requested'));
  }

  async function proxyActivity(): Promise<{ inFlight: number; lastEnded: string | null }> {
    return {
      inFlight: await redis.zcard(`${stack.prefix}:proxy-inflight:qwen`),
      lastEnded: await redis.get(`${stack.prefix}:proxy-last-ended:qwen`),
    };
  }

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'proxy-listings',
      gateway: false,
      wakers: 1,
      idleMonitors: 1,
      env: FAST_IDLE_ENV,
    });
    // A holding proxy, as a chat UI would use: a listing that woke the pod would wait for it.
    proxy = await stack.startProxy({ PROXY_HOLD_SECONDS: '120' });
    redis = connectTestRedis();
    wakeQueue = new Queue('wake', { connection: redis, prefix: stack.prefix });
  });

  afterAll(async () => {
    await wakeQueue?.close();
    await redis?.quit();
    await stack?.stop();
  });

  it('cold, no list known yet: polled every 0.5 s, every answer is 503 with Retry-After; no wake job, no RunPod write', async () => {
    await emptyVolume(stack, monitors);
    await clearSimCalls(stack);
    const polls = await pollFor(proxy, 5_000);

    expect(polls.length).toBeGreaterThanOrEqual(5);
    for (const poll of polls) {
      expect(poll.status).toBe(503);
      expect(poll.retryAfter).toBe('30');
      expect(JSON.parse(poll.text)).toMatchObject({
        error: { code: 'pod_not_ready' },
        pod: 'qwen',
        phase: 'Down',
        reason: 'models-unknown',
      });
    }
    expect(await wakeJobs()).toBe(0);
    expect(wakeRequests()).toEqual([]);
    expect(await simWrites(stack)).toEqual([]);
  });

  let podId = '';
  let servedList = '';

  it('ready: polled every 0.5 s, every listing is forwarded without a lease, and the pod is still idle-stopped a window after ready', async () => {
    podId = 'listed-pod';
    const since = await emptyVolume(stack, monitors);
    await seedPod(stack, { id: podId, status: 'RUNNING', vllmReady: true });
    const ready = await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'the pod ready',
    );
    const polling = startPolling(proxy);
    const stopped = waitForTick(
      monitors,
      (t) => t.at > ready.at && t.phase === 'Down',
      EVENT_DEADLINE_MS,
      'the idle stop while the listings go on',
    );
    // Polling ends either way; a missing stop fails the test after it.
    await stopped.catch(() => undefined);
    const polls = await polling.stop();
    await stopped;

    const ticks = ticksSince(monitors(), since);
    const readyIndex = ticks.findIndex((t) => t.phase === 'Ready');
    const stopIndex = ticks.findIndex((t, i) => i > readyIndex && t.phase === 'Down');
    const table = formatTicks(ticks);
    // The ready tick seeds the counter baseline; every scrape after it read Idle, and the
    // window's last one stopped the pod: on time, as if nobody had listed.
    expect({ table, signals: ticks.slice(readyIndex + 1, stopIndex + 1).map((t) => t.signal) }).toEqual({
      table,
      signals: Array(WINDOW_TICKS).fill('Idle'),
    });
    expect((await stopCalls(stack)).map(podIdOfCall)).toEqual([podId]);
    // The listings went on through the whole window, and each was answered with the list.
    const inWindow = polls.filter((p) => p.at > ready.at && p.at < ticks[stopIndex].at);
    expect(inWindow.length).toBeGreaterThanOrEqual(WINDOW_TICKS);
    expect(polls.map((p) => p.status)).toEqual(polls.map(() => 200));
    expect(JSON.parse(polls[0].text)).toMatchObject({ object: 'list', data: [{ id: MODEL }] });
    // They reached vLLM (as reads, no chat), and the proxy counted none of them as use.
    const scrapes = await stack.simRequest<{ pods: Record<string, { other: number; chat: number }> }>(
      'GET',
      '/_sim/scrapes',
    );
    expect(scrapes.body.pods[podId].other).toBeGreaterThanOrEqual(WINDOW_TICKS);
    expect(scrapes.body.pods[podId].chat).toBe(0);
    expect(await proxyActivity()).toEqual({ inFlight: 0, lastEnded: null });
    // The list the pod served is kept for when it is cold.
    const kept = JSON.parse((await redis.get(`${stack.prefix}:model-list:qwen`)) ?? '{}') as {
      body?: string;
    };
    expect(kept.body).toBe(polls[0].text);
    servedList = polls[0].text;
    expect(await wakeJobs()).toBe(0);
  });

  it('cold with a list known: polled every 0.5 s for 10 s, every answer is 200 with the list the pod served; no wake job, no start or create', async () => {
    expect(servedList).not.toBe('');
    await clearSimCalls(stack);
    const since = Date.now();
    const polls = await pollFor(proxy, 10_000);

    expect(polls.length).toBeGreaterThanOrEqual(10);
    for (const poll of polls) {
      expect(poll.status).toBe(200);
      expect(poll.text).toBe(servedList);
      expect(Number(poll.age)).toBeGreaterThanOrEqual(0);
    }
    expect(await simWrites(stack)).toEqual([]);
    expect(await wakeJobs()).toBe(0);
    expect(wakeRequests()).toEqual([]);
    const ticks = ticksSince(monitors(), since);
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks.every((t) => t.phase === 'Down')).toBe(true);
  });

  it('a chat completion still wakes the stopped pod: one wake job, one start', async () => {
    await clearSimCalls(stack);
    const answer = await chatThrough(proxy, { sim_duration_ms: 0 });
    expect(answer.status).toBe(200);
    expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action start`]);
    expect(await wakeJobs()).toBe(1);
  });
});
