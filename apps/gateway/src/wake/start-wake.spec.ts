import { Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import {
  WAKE_QUEUE,
  WakeGate,
  WakeProgressStore,
  createRedis,
  type WakeJobResult,
} from '@podwarden/platform';
import { TEST_REDIS_URL } from '@podwarden/testing';
import {
  OPERATOR,
  WAKER,
  deferred,
  startGateway,
  until,
  type GatewayHarness,
} from '../testing/gateway-harness';
import { leakedSecrets } from '../testing/secret-scan';

type Behaviour = (job: Job) => Promise<WakeJobResult>;

function cannedResult(job: Job, overrides: Partial<WakeJobResult> = {}): WakeJobResult {
  return {
    name: 'qwen',
    attemptId: String(job.id),
    outcome: 'Started',
    failureKind: null,
    podId: 'p1',
    gpuId: null,
    pricePerHour: null,
    proxyUrl: 'https://p1-8000.proxy.runpod.net',
    message: 'started pod p1',
    joined: false,
    ...overrides,
  };
}

/** A stand-in waker: a real BullMQ worker on the gateway's queue whose behaviour each test scripts. */
class TestWaker {
  behaviour: Behaviour = async (job) => cannedResult(job);
  processed = 0;
  private readonly connection: Redis = createRedis(
    { url: TEST_REDIS_URL, topology: { kind: 'standalone', url: TEST_REDIS_URL } },
    'worker',
  );
  private readonly worker: Worker;

  constructor(prefix: string) {
    this.worker = new Worker(
      WAKE_QUEUE,
      async (job: Job) => {
        this.processed += 1;
        return this.behaviour(job);
      },
      { connection: this.connection, prefix, concurrency: 4 },
    );
  }

  async close(): Promise<void> {
    await this.worker.close();
    await this.connection.quit();
  }
}

describe('POST /api/pods/{name}/start', () => {
  let gw: GatewayHarness;
  let waker: TestWaker;

  beforeAll(async () => {
    gw = await startGateway('start');
    waker = new TestWaker(gw.config.redis.prefix);
  });
  afterAll(async () => {
    await waker.close();
    await gw.close();
  });
  beforeEach(() => {
    waker.behaviour = async (job) => cannedResult(job);
    waker.processed = 0;
  });

  const queue = () => gw.wakeQueue;

  it('queues one wake job for the pod and answers 200 with the wake result', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      outcome: 'Started',
      attemptId: expect.any(String),
      podId: 'p1',
      gpuId: null,
      pricePerHour: null,
      proxyUrl: 'https://p1-8000.proxy.runpod.net',
      message: 'started pod p1',
    });
    const job = await queue().getJob(String(answer.body.attemptId));
    expect(job?.name).toBe('wake');
    expect(job?.data).toEqual({ podName: 'qwen', requestedBy: 'gateway' });
    // The gateway itself never calls RunPod on start: the waker does.
    expect(gw.fake.calls).toEqual([]);
  });

  it('accepts the wake-only token and any spelling of the name', async () => {
    const answer = await gw.request('POST', '/api/pods/QWEN/start', WAKER);
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('qwen');
  });

  it('records a sanitised X-Requested-By as the requester', async () => {
    const answer = await gw.request('POST', '/api/pods/qwen/start', {
      ...OPERATOR,
      'X-Requested-By': 'rig-e <script>alert(1)</script>',
    });
    const job = await queue().getJob(String(answer.body.attemptId));
    expect(job?.data.requestedBy).toBe('rig-e scriptalert1/script');
  });

  it('concurrent starts while the wake is in flight join it: same attemptId, one job, one run', async () => {
    const gate = deferred();
    waker.behaviour = async (job) => {
      await gate.promise;
      return cannedResult(job, { outcome: 'Created', gpuId: 'NVIDIA A40', pricePerHour: 0.89 });
    };
    const requested = () => gw.logs.find('wake requested for qwen').length;
    const before = requested();
    const answers = Promise.all([1, 2, 3].map(() => gw.request('POST', '/api/pods/qwen/start', OPERATOR)));
    // All three were queued (and joined) while the one wake is still running.
    await until(
      () => requested() === before + 3 && waker.processed === 1,
      'three queued starts and the one wake running',
    );
    gate.release();
    const done = await answers;
    expect(done.map((a) => a.status)).toEqual([200, 200, 200]);
    const ids = new Set(done.map((a) => a.body.attemptId));
    expect(ids.size).toBe(1);
    expect(waker.processed).toBe(1);
    expect(done[0].body).toMatchObject({ outcome: 'Created', gpuId: 'NVIDIA A40', pricePerHour: 0.89 });
  });

  it('a start after the previous wake completed is a new attempt', async () => {
    const first = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    const second = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body.attemptId).not.toBe(first.body.attemptId);
    expect(waker.processed).toBe(2);
  });

  it('a job that fails is a 409 problem with its reason, and the next start is a new attempt', async () => {
    waker.behaviour = async () => {
      throw new Error('invalid wake payload: scripted crash');
    };
    const failed = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(failed.status).toBe(409);
    expect(failed.contentType).toContain('application/problem+json');
    expect(failed.body).toMatchObject({
      status: 409,
      outcome: 'Failed',
      detail: 'invalid wake payload: scripted crash',
      attemptId: expect.any(String),
    });
    waker.behaviour = async (job) => cannedResult(job, { outcome: 'AlreadyRunning' });
    const next = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(next.status).toBe(200);
    expect(next.body.outcome).toBe('AlreadyRunning');
    expect(next.body.attemptId).not.toBe(failed.body.attemptId);
  });

  it('a failed job whose result was published answers with the published reason', async () => {
    const gate = gw.app.get(WakeGate);
    waker.behaviour = async (job) => {
      await gate.publishResult(
        cannedResult(job, {
          outcome: 'Failed',
          failureKind: 'refused',
          podId: null,
          proxyUrl: null,
          message: 'no GPU: A40 PriceAboveMaximum',
        }),
      );
      throw new Error('worker lost the job lock');
    };
    const answer = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ outcome: 'Failed', detail: 'no GPU: A40 PriceAboveMaximum' });
  });

  it.each([
    ['AlreadyRunning', 200],
    ['Started', 200],
    ['Created', 200],
    ['Waiting', 202],
  ] as const)('a %s wake answers %i with the start body', async (outcome, status) => {
    waker.behaviour = async (job) => cannedResult(job, { outcome });
    const answer = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(answer.status).toBe(status);
    expect(answer.body.outcome).toBe(outcome);
  });

  it('a Failed wake is a 409 problem whose detail is the wake message (naming excluded GPUs)', async () => {
    const message = 'no eligible GPU: NVIDIA L40S PriceAboveMaximum; NVIDIA A40 NotInDataCenter';
    waker.behaviour = async (job) =>
      cannedResult(job, { outcome: 'Failed', failureKind: 'refused', podId: null, proxyUrl: null, message });
    const answer = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(answer.status).toBe(409);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({
      type: expect.any(String),
      title: 'Wake failed',
      status: 409,
      detail: message,
      outcome: 'Failed',
      name: 'qwen',
    });
    expect(typeof answer.body.attemptId).toBe('string');
  });

  it('a wake that joined another attempt reports the holder attempt id', async () => {
    waker.behaviour = async (job) => cannedResult(job, { attemptId: 'holder-attempt-1', joined: true });
    const answer = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(answer.body.attemptId).toBe('holder-attempt-1');
  });

  it('an unknown name is 404 before any queue write or RunPod call', async () => {
    const before = await queue().getJobCounts();
    const answer = await gw.request('POST', '/api/pods/llama/start', OPERATOR);
    expect(answer.status).toBe(404);
    expect(await queue().getJobCounts()).toEqual(before);
    expect(gw.fake.calls).toEqual([]);
  });

  it('counts start answers by wake outcome in the Prometheus metrics', async () => {
    waker.behaviour = async (job) => cannedResult(job, { outcome: 'Created' });
    await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    const metrics = await gw.request('GET', '/metrics');
    expect(metrics.text).toMatch(/podwarden_gateway_wake_starts_total\{outcome="Created"\} [1-9]/);
    expect(metrics.text).toMatch(/podwarden_gateway_wake_starts_total\{outcome="Failed"\} [1-9]/);
  });

  it('never leaks a secret in the answers and log lines it produces', async () => {
    const produced = await gw.produced(async () => {
      await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
      waker.behaviour = async (job) =>
        cannedResult(job, { outcome: 'Failed', failureKind: 'refused', podId: null, message: 'no GPU' });
      await gw.request('POST', '/api/pods/qwen/start', { ...WAKER, 'X-Requested-By': 'scan' });
      await gw.request('POST', '/api/pods/llama/start', OPERATOR);
      await gw.request('POST', '/api/pods/qwen/start', { 'X-Rig-Operator-Token': 'wrong' });
    });
    expect(produced.answers.map((answer) => answer.status)).toEqual([200, 409, 404, 401]);
    expect(leakedSecrets(produced)).toEqual([]);
  });
});

describe('POST …/start when the wake outlasts the request', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('start-timeout', { env: { WAKE_REQUEST_WAIT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers 202 Waiting with the job id, leaves the job queued, and a retry joins it with the progress', async () => {
    const first = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      name: 'qwen',
      outcome: 'Waiting',
      attemptId: expect.any(String),
      podId: null,
      gpuId: null,
      pricePerHour: null,
      proxyUrl: null,
      message: 'wake in flight',
    });
    const jobId = String(first.body.attemptId);
    expect(await gw.wakeQueue.getJobState(jobId)).toBe('waiting');

    const progress = {
      attemptId: jobId,
      phase: 'observe',
      message: 'waiting for pod p1 to run',
      updatedAt: new Date().toISOString(),
    };
    await gw.app.get(WakeProgressStore).set('qwen', progress);
    const retry = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ attemptId: jobId, message: 'waiting for pod p1 to run' });
    expect(await gw.wakeQueue.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });
});

describe('POST …/start when unconfigured', () => {
  it('is 503 with no queue write and no RunPod call', async () => {
    const gw = await startGateway('start-unconfigured', { env: { RUNPOD_API_KEY: undefined } });
    try {
      const answer = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
      expect(answer.status).toBe(503);
      expect(answer.contentType).toContain('application/problem+json');
      expect(answer.body).toMatchObject({ status: 503, title: 'Pod not configured' });
      const counts = await gw.wakeQueue.getJobCounts();
      expect(Object.values(counts).every((n) => n === 0)).toBe(true);
      expect(gw.fake.calls).toEqual([]);
    } finally {
      await gw.close();
    }
  });
});

describe('POST …/start when Redis is down', () => {
  it('is a 503 problem, while GET still answers 200', async () => {
    const gw = await startGateway('start-redis-down', { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const start = await gw.request('POST', '/api/pods/qwen/start', OPERATOR);
      expect(start.status).toBe(503);
      expect(start.body).toMatchObject({ status: 503, title: 'Wake queue unavailable' });
      // Shed, not refused: the caller is told when to try again.
      expect(start.headers.get('retry-after')).toBe('2');
      const get = await gw.request('GET', '/api/pods/qwen');
      expect(get.status).toBe(200);
      expect(get.body).toMatchObject({ readySince: null, wake: null, lastWake: null });
    } finally {
      await gw.close();
    }
  }, 30_000);
});
