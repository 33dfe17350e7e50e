import { ReadyTimes, RedisKeys } from '@podwarden/platform';
import { connectTestRedis } from '@podwarden/testing';
import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import { TEST_INFERENCE_TOKEN } from '../support/test-env';
import { MODEL, chatThrough, proxyMetric } from './support/proxy-client';
import { FAST_TIMINGS, resetSim, simWrites } from '../support/sim-admin';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  WINDOW_TICKS,
  addFault,
  requestsRunning,
  stopCalls,
  tickLines,
  waitForTick,
} from '../idle/support/idle-harness';

/**
 * The inference proxy as real processes in front of the simulator: cold
 * requests wake the pod through the wake queue and are held or shed, the
 * answers (streamed or not) pass through, and the proxy's traffic keeps the
 * pod from the idle stop while it runs and lets it go once it ends.
 */
jest.setTimeout(240_000);

/** The one pod the simulator has serving (the tests run without a gateway). */
async function servingPodId(stack: Stack): Promise<string> {
  const state = await stack.simRequest<{ pods: { id: string; internal: { serving: string } }[] }>(
    'GET',
    '/_sim/state',
  );
  const ready = state.body.pods.filter((pod) => pod.internal.serving === 'ready');
  if (ready.length !== 1) throw new Error(`expected one serving pod, found ${ready.length}`);
  return ready[0].id;
}

describe('inference proxy (against the simulator)', () => {
  let stack: Stack;
  let holding: string;
  let holdingTwin: string;
  let shedding: string;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'proxy',
      gateway: false,
      wakers: 1,
      idleMonitors: 1,
      env: FAST_IDLE_ENV,
    });
    [holding, holdingTwin, shedding] = await Promise.all([
      stack.startProxy({ PROXY_HOLD_SECONDS: '120' }),
      stack.startProxy({ PROXY_HOLD_SECONDS: '120' }),
      stack.startProxy({ PROXY_HOLD_SECONDS: '0' }),
    ]);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('a missing or wrong client token is 401 and wakes nothing (the operator token is a wrong token here)', async () => {
    await resetSim(stack);
    for (const token of ['wrong', 'op-token-for-tests-7d21', '']) {
      const answer = await chatThrough(holding, {}, token);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: 'invalid_api_key' } });
    }
    const unknown = await fetch(`${holding}/nobody/v1/models`, {
      headers: { Authorization: `Bearer ${TEST_INFERENCE_TOKEN}` },
    });
    expect(unknown.status).toBe(404);
    expect(await simWrites(stack)).toEqual([]);
    expect(stack.wakers[0].messages().filter((m) => m.includes('wake'))).not.toContainEqual(
      expect.stringContaining('Requested'),
    );
  });

  it('100 concurrent cold requests over two proxy replicas: one wake, one RunPod write, every request answered once the model is ready', async () => {
    await resetSim(stack, { timings: FAST_TIMINGS });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        chatThrough(i % 2 === 0 ? holding : holdingTwin, { sim_duration_ms: 0 }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    expect(answers[0].body).toMatchObject({ object: 'chat.completion', model: MODEL });
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    const wakeLines = stack.proxies
      .flatMap((p) => p.messages())
      .filter((m) => m.startsWith('wake requested'));
    expect(new Set(wakeLines.map((m) => /job (\S+)\)/.exec(m)?.[1])).size).toBe(1);
    // The pod's event stream says what the proxies did: the wake they asked for, the held requests released.
    const redis = connectTestRedis();
    try {
      const entries = await redis.xrange(`${stack.prefix}:events:qwen`, '-', '+');
      const proxyEvents = entries
        .filter(([, fields]) => fields[1] === 'proxy')
        .map(([, fields]) => JSON.parse(fields[3]) as { action: string; requests?: number });
      expect(proxyEvents.some((e) => e.action === 'wake-requested')).toBe(true);
      const released = proxyEvents.filter((e) => e.action === 'released');
      expect(released.reduce((sum, e) => sum + (e.requests ?? 0), 0)).toBe(100);
    } finally {
      await redis.quit();
    }
  });

  it('a streamed completion arrives chunk by chunk: the first chunk while the generation still runs', async () => {
    // Served by the pod the previous test woke, or woken again by this request if idle-stopped since.
    const response = await fetch(`${holding}/qwen/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_INFERENCE_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: MODEL,
        messages: [{ role: 'user', content: 'Stream please' }],
        stream: true,
        max_tokens: 8,
        sim_duration_ms: 4000,
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"content":"This"');
    // The pod is still generating when the client holds the first token.
    expect(await requestsRunning(stack, await servingPodId(stack))).toBe(1);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest.trim().endsWith('data: [DONE]')).toBe(true);
    expect(rest.split('\n\n').filter((e) => e.startsWith('data: ')).length).toBeGreaterThanOrEqual(8);
  });

  it('a long generation through the proxy is never idle-stopped while /metrics does not answer; the pod is idle-stopped once it ends', async () => {
    await resetSim(stack, { timings: FAST_TIMINGS });
    // Cold: held while the pod wakes, then forwarded and left generating.
    const long = chatThrough(holding, { sim_duration_ms: 3_600_000 });
    long.catch(() => undefined);
    const podId = await eventually(
      async () => {
        const id = await servingPodId(stack).catch(() => undefined);
        return id !== undefined && (await requestsRunning(stack, id)) === 1 ? id : undefined;
      },
      EVENT_DEADLINE_MS,
      'the long generation in flight',
    );
    await addFault(stack, { route: 'metrics', podId, kind: 'status', status: 502, times: 100_000 });
    const blindFrom = Date.now();
    // Twice the idle window of ticks that cannot scrape: each reads Busy through the proxy's traffic.
    await waitForTick(
      monitors,
      (t) =>
        t.at > blindFrom && tickLines(monitors()).filter((x) => x.at > blindFrom).length >= 2 * WINDOW_TICKS,
      EVENT_DEADLINE_MS,
      'twice the idle window of blind ticks',
    );
    const blind = tickLines(monitors()).filter((t) => t.at > blindFrom);
    expect(blind.every((t) => t.signal === 'Busy' && t.phase === 'Ready')).toBe(true);
    expect(await stopCalls(stack)).toEqual([]);

    await stack.simRequest('DELETE', '/_sim/faults');
    await stack.simRequest('PUT', '/_sim/config', { speed: 100_000 });
    const ended = await long;
    await stack.simRequest('PUT', '/_sim/config', { speed: 1 });
    expect(ended.status).toBe(200);
    const stops = await eventually(
      async () => {
        const calls = await stopCalls(stack);
        return calls.length > 0 ? calls : undefined;
      },
      EVENT_DEADLINE_MS,
      'the idle stop after the traffic ended',
    );
    expect(stops).toHaveLength(1);
  });

  it('in shed mode a cold request is 503 at once with Retry-After and a body naming the phase, and wakes the pod', async () => {
    await resetSim(stack, { timings: FAST_TIMINGS });
    const answer = await chatThrough(shedding);
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(answer.body).toMatchObject({
      error: { code: 'pod_not_ready', type: 'pod_not_ready' },
      pod: 'qwen',
      phase: 'Down',
      reason: 'hold-disabled',
    });
    await eventually(
      async () => ((await simWrites(stack)).length === 1 ? true : undefined),
      EVENT_DEADLINE_MS,
      'the wake the shed request asked for',
    );
    expect(await simWrites(stack)).toEqual(['POST /pods']);
    // Once the model is ready the same client gets its answer through the same proxy.
    const served = await eventually(
      async () => {
        const retry = await chatThrough(shedding, { sim_duration_ms: 0 });
        return retry.status === 200 ? retry : undefined;
      },
      EVENT_DEADLINE_MS,
      'the model ready behind the shedding proxy',
    );
    expect(served.body).toMatchObject({ object: 'chat.completion' });
  });

  it('with wake history, a shed answer counts Retry-After down to expectedReadyAt (the boot start plus the median time-to-ready)', async () => {
    // More past boots of 240 s than the tests above recorded: the median is 240 s.
    const redis = connectTestRedis();
    try {
      const readyTimes = new ReadyTimes(redis, new RedisKeys(stack.prefix));
      for (let i = 0; i < 9; i++) {
        await readyTimes.add(
          'qwen',
          { attemptId: `seed-${i}`, gpuId: null, readyAfterMs: 240_000 },
          Date.now(),
        );
      }
    } finally {
      await redis.quit();
    }
    await resetSim(stack, { timings: FAST_TIMINGS });
    // A proxy of its own: the shedding one may still count on the previous test's wake.
    const fresh = await stack.startProxy({ PROXY_HOLD_SECONDS: '0' });
    const sentAt = Date.now();
    const answer = await chatThrough(fresh);
    const receivedAt = Date.now();

    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ phase: expect.any(String), reason: 'hold-disabled' });
    // The boot began when the wake was requested (or queued): between sending and the answer.
    const expectedReadyAt = Date.parse(String(answer.body.expectedReadyAt));
    expect(expectedReadyAt - 240_000).toBeGreaterThanOrEqual(sentAt);
    expect(expectedReadyAt - 240_000).toBeLessThanOrEqual(receivedAt);
    // Whole seconds to expectedReadyAt as the proxy saw the clock, somewhere between the two.
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBe(answer.body.retryAfterSeconds);
    expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((expectedReadyAt - receivedAt) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil((expectedReadyAt - sentAt) / 1000));
    await eventually(
      async () => ((await simWrites(stack)).length === 1 ? true : undefined),
      EVENT_DEADLINE_MS,
      'the wake the shed request asked for',
    );
  });

  it('PROXY_MAX_HELD bounds the requests one replica holds: beyond it a cold request is shed at once (hold-full); held clients that leave are dropped', async () => {
    // The model never loads: held requests stay held until their clients leave.
    await resetSim(stack, { timings: { ...FAST_TIMINGS, modelLoadMs: 3_600_000 } });
    const bounded = await stack.startProxy({ PROXY_HOLD_SECONDS: '120', PROXY_MAX_HELD: '2' });
    const held = (ending: string) => `podwarden_proxy_hold_seconds_count{pod="qwen",ending="${ending}"}`;
    const clients = [new AbortController(), new AbortController()];
    const holding2 = clients.map((c) =>
      chatThrough(bounded, {}, TEST_INFERENCE_TOKEN, c.signal).catch(() => null),
    );
    await eventually(
      async () =>
        (await proxyMetric(bounded, 'podwarden_proxy_requests_total{pod="qwen",outcome="held"}')) === 2
          ? true
          : undefined,
      EVENT_DEADLINE_MS,
      'two requests held',
    );

    const third = await chatThrough(bounded);
    expect(third.status).toBe(503);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(third.body).toMatchObject({ error: { code: 'pod_not_ready' }, pod: 'qwen', reason: 'hold-full' });

    for (const client of clients) client.abort();
    expect(await Promise.all(holding2)).toEqual([null, null]);
    await eventually(
      async () => ((await proxyMetric(bounded, held('aborted'))) === 2 ? true : undefined),
      EVENT_DEADLINE_MS,
      'both held clients dropped',
    );
    expect(await proxyMetric(bounded, held('ready'))).toBe(0);
    expect(await proxyMetric(bounded, 'podwarden_proxy_requests_total{pod="qwen",outcome="held"}')).toBe(2);
  });
});
