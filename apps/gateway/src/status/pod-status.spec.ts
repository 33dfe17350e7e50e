import { SPEND_BASIS } from './spend-today.dto';
import { INITIAL_IDLE_STATE } from '@podwarden/policies';
import type Redis from 'ioredis';
import {
  EMPTY_IDLE_RECORD,
  IdleStateStore,
  REDIS,
  REDIS_KEYS,
  ReadyTimes,
  type RedisKeys,
  WakeHistory,
  WakeProgressStore,
} from '@podwarden/platform';
import { OUR_VOLUME, type FakePod } from '@podwarden/testing';
import { OPERATOR, deferred, startGateway, until, type GatewayHarness } from '../testing/gateway-harness';
import { leakedSecrets } from '../testing/secret-scan';
import { PodStatusService } from './pod-status.service';

type PodOnVolume = Partial<Omit<FakePod, 'id'>>;

/** A pod mounting the configured volume, RUNNING with a GPU unless told otherwise. */
function onVolume(gw: GatewayHarness, id: string, changes: PodOnVolume = {}): void {
  gw.fake.setPod(id, { volumeId: OUR_VOLUME, ...changes });
}

const EXITED: PodOnVolume = { listedStatus: 'EXITED', observation: 'Exited' };

describe('GET /api/pods/{name}', () => {
  let gw: GatewayHarness;

  beforeAll(async () => {
    gw = await startGateway('status');
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.resetRunPod());

  it('reports the serving pod even when a stale EXITED pod is listed first', async () => {
    onVolume(gw, 'stale', EXITED);
    onVolume(gw, 'fresh');
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'qwen',
      configured: true,
      status: 'RUNNING',
      isRunning: true,
      podId: 'fresh',
      proxyUrl: 'https://fresh-8000.proxy.runpod.net',
      podsOnVolume: 2,
      datacenter: 'EU-RO-1',
      lookup: 'FOUND',
      readySince: null,
      wake: null,
      lastWake: null,
      idleStopAt: null,
      runtimeCapAt: null,
      keepAliveUntil: null,
      observedAt: expect.any(String),
      expectedReadyAt: null,
      spendToday: {
        estimate: true,
        basis: SPEND_BASIS,
        day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        spentUsd: 0,
        accruingUsd: 0,
        reservedUsd: 0,
        budgetUsd: null,
        providerUsd: null,
        providerAsOf: null,
        providerBasis: expect.stringMatching(/^provider-attributed/),
        storageUsdPerDay: null,
      },
      stopConfirmed: null,
      idleWindow: { minutes: 15, policy: 'fixed', basis: 'fixed window of 15 min' },
      nextPrewakeAt: null,
    });
  });

  it.each([
    ['RUNNING with no GPU attached does not serve', { gpuCount: 0 }, 'RUNNING', false],
    ['RUNNING with a GPU serves', { gpuCount: 1 }, 'RUNNING', true],
    ['EXITED', { observation: 'Exited' }, 'EXITED', false],
    ['STARTING', { observation: 'Starting', gpuCount: 0 }, 'STARTING', false],
    ['an unreadable observe is UNKNOWN', { observation: 'unreadable' }, 'UNKNOWN', false],
  ] as Array<[string, PodOnVolume, string, boolean]>)(
    'status word: %s',
    async (_rule, pod, status, isRunning) => {
      onVolume(gw, 'p1', pod);
      const answer = await gw.request('GET', '/api/pods/qwen');
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        status,
        isRunning,
        podId: 'p1',
        proxyUrl: 'https://p1-8000.proxy.runpod.net',
      });
    },
  );

  it('no pod on the volume is lookup NOT_FOUND with status UNKNOWN and no pod named', async () => {
    gw.fake.setPod('other', { volumeId: 'vol-other' });
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body).toMatchObject({
      lookup: 'NOT_FOUND',
      status: 'UNKNOWN',
      podId: null,
      proxyUrl: null,
      podsOnVolume: 0,
    });
    expect(gw.fake.count('observe')).toBe(0);
  });

  it('a RunPod blip (unreadable list) is 200 with lookup UNREADABLE, never a 5xx', async () => {
    gw.fake.listFails('http 502');
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      lookup: 'UNREADABLE',
      status: 'UNKNOWN',
      isRunning: false,
      configured: true,
    });
  });

  it('a client that throws is still only a blip: 200 with lookup UNREADABLE', async () => {
    gw.fake.listThrows = true;
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ lookup: 'UNREADABLE', status: 'UNKNOWN' });
  });

  it('the name is matched case-insensitively and answered with the configured spelling', async () => {
    const answer = await gw.request('GET', '/api/pods/QWEN');
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('qwen');
  });

  it('an unknown name is a 404 problem before any RunPod call', async () => {
    const answer = await gw.request('GET', '/api/pods/llama');
    expect(answer.status).toBe(404);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 404, title: 'Unknown pod' });
    expect(gw.fake.calls).toEqual([]);
  });

  it('20 concurrent GETs share one volume list and one observe per pod', async () => {
    onVolume(gw, 'a', EXITED);
    onVolume(gw, 'b');
    // The list is held until every GET has asked for the status: all 20 overlap one read, whatever the load.
    const held = deferred();
    gw.fake.holdNextList = held.promise;
    const reads = jest.spyOn(gw.app.get(PodStatusService), 'read');
    try {
      const pending = Promise.all(Array.from({ length: 20 }, () => gw.request('GET', '/api/pods/qwen')));
      await until(() => reads.mock.calls.length === 20, '20 status reads');
      held.release();
      const answers = await pending;
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      expect(answers.map((a) => a.body.podId)).toEqual(Array(20).fill('b'));
      expect(gw.fake.calls).toEqual(['list', 'observe a', 'observe b']);
    } finally {
      reads.mockRestore();
    }
  });

  it('a GET within STATUS_MAX_AGE_MS answers from the shared snapshot: no second RunPod read', async () => {
    onVolume(gw, 'b');
    const first = await gw.request('GET', '/api/pods/qwen');
    gw.fake.removePod('b');
    const second = await gw.request('GET', '/api/pods/qwen');
    expect(second.body).toMatchObject({ podId: 'b', lookup: 'FOUND', observedAt: first.body.observedAt });
    expect(gw.fake.calls).toEqual(['list', 'observe b']);
  });

  it('observedAt is when RunPod was read, not when the answer was sent', async () => {
    onVolume(gw, 'b');
    const before = Date.now();
    const answer = await gw.request('GET', '/api/pods/qwen');
    const observedAt = Date.parse(answer.body.observedAt as string);
    expect(observedAt).toBeGreaterThanOrEqual(before);
    expect(observedAt).toBeLessThanOrEqual(Date.now());
  });

  it('serves readiness, idle deadlines, wake progress and the last wake from Redis', async () => {
    onVolume(gw, 'b');
    const readySince = Date.parse('2026-09-11T08:55:22Z');
    await gw.app.get(IdleStateStore).save('qwen', {
      ...EMPTY_IDLE_RECORD,
      state: {
        ...INITIAL_IDLE_STATE,
        phase: 'Ready',
        idleStreak: 3,
        upSince: readySince - 60_000,
        readySince,
        lastTickAt: readySince + 180_000,
      },
      updatedAt: readySince,
    });
    const progress = {
      attemptId: 'att-9',
      phase: 'observe',
      message: 'waiting for pod b',
      updatedAt: '2026-09-11T09:00:00.000Z',
    };
    await gw.app.get(WakeProgressStore).set('qwen', progress);
    const history = gw.app.get(WakeHistory);
    await history.requested({
      podName: 'qwen',
      attemptId: 'att-8',
      requestedAt: '2026-09-11T08:50:00.000Z',
      requestedBy: 'gateway',
    });
    await history.completed({
      podName: 'qwen',
      attemptId: 'att-8',
      requestedAt: '2026-09-11T08:50:00.000Z',
      requestedBy: 'gateway',
      completedAt: '2026-09-11T08:51:00.000Z',
      outcome: 'Succeeded',
      wakeOutcome: 'Created',
      reason: 'created on NVIDIA A40',
      podId: 'b',
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.89,
      candidatesConsidered: 3,
      lastProviderStatus: 201,
    });

    const answer = await gw.request('GET', '/api/pods/qwen');

    expect(answer.body).toMatchObject({
      readySince: '2026-09-11T08:55:22.000Z',
      // 15 idle minutes at 60 s ticks is 15 ticks; 3 are banked, 12 remain after the last tick.
      idleStopAt: new Date(readySince + 180_000 + 12 * 60_000).toISOString(),
      runtimeCapAt: new Date(readySince - 60_000 + 360 * 60_000).toISOString(),
      wake: progress,
      lastWake: {
        attemptId: 'att-8',
        requestedAt: '2026-09-11T08:50:00.000Z',
        completedAt: '2026-09-11T08:51:00.000Z',
        outcome: 'Succeeded',
        wakeOutcome: 'Created',
        reason: 'created on NVIDIA A40',
        podId: 'b',
        gpuId: 'NVIDIA A40',
        pricePerHour: 0.89,
      },
    });
  });

  describe('expectedReadyAt', () => {
    const requestedAt = '2026-09-11T08:50:00.000Z';

    async function createdAndBooting(): Promise<void> {
      onVolume(gw, 'b', { observation: 'Starting', gpuCount: 0 });
      const history = gw.app.get(WakeHistory);
      const attempt = { podName: 'qwen', attemptId: 'att-boot', requestedAt, requestedBy: 'gateway' };
      await history.requested(attempt);
      await history.completed({
        ...attempt,
        completedAt: '2026-09-11T08:51:00.000Z',
        outcome: 'Succeeded',
        wakeOutcome: 'Created',
        reason: 'created on NVIDIA A40',
        podId: 'b',
        gpuId: 'NVIDIA A40',
        pricePerHour: 0.89,
        candidatesConsidered: 1,
        lastProviderStatus: 201,
      });
    }

    // Earlier specs leave readiness, progress and wakes behind; each of these starts from none.
    beforeEach(async () => {
      const redis = gw.app.get<Redis>(REDIS);
      const keys = gw.app.get<RedisKeys>(REDIS_KEYS);
      await redis.del(
        keys.wakeHistory('qwen'),
        keys.readyTimes('qwen'),
        keys.idleState('qwen'),
        keys.wakeProgress('qwen'),
      );
    });

    it('is null without history, even while the pod boots', async () => {
      await createdAndBooting();
      const answer = await gw.request('GET', '/api/pods/qwen');
      expect(answer.body).toMatchObject({ status: 'STARTING', expectedReadyAt: null });
    });

    it('is the wake request plus the median time-to-ready of past wakes while the pod boots', async () => {
      await createdAndBooting();
      const times = gw.app.get(ReadyTimes);
      for (const [i, minutes] of [4, 9, 6].entries()) {
        await times.add(
          'qwen',
          { attemptId: `past-${i}`, gpuId: 'NVIDIA L40S', readyAfterMs: minutes * 60_000 },
          i,
        );
      }
      const answer = await gw.request('GET', '/api/pods/qwen');
      expect(answer.body.expectedReadyAt).toBe(new Date(Date.parse(requestedAt) + 6 * 60_000).toISOString());
    });

    it('is null once nothing is booting, whatever the history', async () => {
      onVolume(gw, 'b');
      await gw.app.get(ReadyTimes).add('qwen', { attemptId: 'past', gpuId: null, readyAfterMs: 60_000 }, 1);
      expect((await gw.request('GET', '/api/pods/qwen')).body.expectedReadyAt).toBeNull();
    });
  });

  it('never leaks a secret in the answers and log lines it produces', async () => {
    const produced = await gw.produced(async () => {
      onVolume(gw, 'b');
      await gw.request('GET', '/api/pods/qwen', OPERATOR);
      await gw.request('GET', '/api/pods', OPERATOR);
      await gw.request('GET', '/api/pods/llama', OPERATOR);
      // A client that throws is logged at Warning with its error (after a write, so RunPod is read).
      await gw.resetRunPod();
      gw.fake.listThrows = true;
      await gw.request('GET', '/api/pods/qwen', OPERATOR);
    });
    expect(produced.answers.map((answer) => answer.status)).toEqual([200, 200, 404, 200]);
    expect(leakedSecrets(produced)).toEqual([]);
  });
});

describe('GET /api/pods/{name} when Redis cannot be read', () => {
  let gw: GatewayHarness;
  const failing = () => Promise.reject(new Error('ECONNREFUSED scripted'));

  beforeAll(async () => {
    gw = await startGateway('status-redis-down', {
      overrides: [
        { token: IdleStateStore, value: { load: failing } },
        { token: WakeProgressStore, value: { get: failing } },
        { token: WakeHistory, value: { last: failing, recent: failing } },
      ],
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers 200 with the Redis-backed fields null and logs a warning', async () => {
    onVolume(gw, 'b');
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status: 'RUNNING',
      isRunning: true,
      readySince: null,
      wake: null,
      lastWake: null,
      idleStopAt: null,
      runtimeCapAt: null,
    });
    expect(gw.logs.messages('warn')).toEqual(
      expect.arrayContaining(['pod status: idle state unreadable; reporting null']),
    );
  });
});

describe('GET when unconfigured', () => {
  it.each([
    ['no API key', { RUNPOD_API_KEY: undefined }],
    ['a blank volume id', { RUNPOD_VOLUME_ID: '' }],
  ])(
    'with %s answers 200 configured:false, lookup UNCONFIGURED, and calls RunPod not at all',
    async (_rule, env) => {
      const gw = await startGateway('status-unconfigured', { env });
      try {
        const answer = await gw.request('GET', '/api/pods/qwen');
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({
          configured: false,
          lookup: 'UNCONFIGURED',
          status: 'UNKNOWN',
          podId: null,
        });
        expect(gw.fake.calls).toEqual([]);
      } finally {
        await gw.close();
      }
    },
  );
});

describe('GET /api/pods', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('status-list', {
      env: { PODS_CONFIG: '/unused/pods.json' },
      podsConfigText: JSON.stringify({
        pods: [
          { name: 'beta', volumeId: 'vol-beta' },
          { name: 'alpha', volumeId: 'vol-alpha' },
        ],
      }),
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('lists every configured pod with its GET summary, in config order', async () => {
    gw.fake.setPod('pa', { volumeId: 'vol-alpha' });
    gw.fake.setPod('pb', { volumeId: 'vol-beta', ...EXITED });
    const answer = await gw.request('GET', '/api/pods');
    expect(answer.status).toBe(200);
    const pods = answer.body.pods as Array<Record<string, unknown>>;
    expect(pods.map((p) => [p.name, p.podId, p.status])).toEqual([
      ['beta', 'pb', 'EXITED'],
      ['alpha', 'pa', 'RUNNING'],
    ]);
  });
});
