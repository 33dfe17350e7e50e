import { INITIAL_IDLE_STATE } from '@podwarden/policies';
import { EMPTY_IDLE_RECORD, IdleStateStore, WakeHistory, WakeProgressStore } from '@podwarden/platform';
import { listedPod } from '../testing/fake-runpod-client';
import { leakedSecrets, startGateway, type GatewayHarness } from '../testing/gateway-harness';

const running = (podId: string, gpuCount = 1) => ({
  kind: 'found' as const,
  podId,
  status: 'Running' as const,
  gpuCount,
});
const exited = (podId: string) => ({ kind: 'found' as const, podId, status: 'Exited' as const, gpuCount: 0 });

describe('GET /api/pods/{name}', () => {
  let gw: GatewayHarness;

  beforeAll(async () => {
    gw = await startGateway('status');
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.fake.reset());

  it('reports the serving pod even when a stale EXITED pod is listed first', async () => {
    gw.fake.script([
      { listed: listedPod('stale', 'vol-qwen', 'EXITED'), observation: exited('stale') },
      { listed: listedPod('fresh', 'vol-qwen', 'RUNNING'), observation: running('fresh') },
    ]);
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
    });
  });

  it.each([
    ['RUNNING with no GPU attached does not serve', running('p1', 0), 'RUNNING', false],
    ['RUNNING with a GPU serves', running('p1', 1), 'RUNNING', true],
    ['EXITED', exited('p1'), 'EXITED', false],
    [
      'STARTING',
      { kind: 'found' as const, podId: 'p1', status: 'Starting' as const, gpuCount: 0 },
      'STARTING',
      false,
    ],
    [
      'an unreadable observe is UNKNOWN',
      { kind: 'unreadable' as const, podId: 'p1', reason: 'blip' },
      'UNKNOWN',
      false,
    ],
  ])('status word: %s', async (_rule, observation, status, isRunning) => {
    gw.fake.script([{ listed: listedPod('p1', 'vol-qwen', 'RUNNING'), observation }]);
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      status,
      isRunning,
      podId: 'p1',
      proxyUrl: 'https://p1-8000.proxy.runpod.net',
    });
  });

  it('no pod on the volume is lookup NOT_FOUND with status UNKNOWN and no pod named', async () => {
    gw.fake.script([{ listed: listedPod('other', 'vol-other', 'RUNNING'), observation: running('other') }]);
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body).toMatchObject({
      lookup: 'NOT_FOUND',
      status: 'UNKNOWN',
      podId: null,
      proxyUrl: null,
      podsOnVolume: 0,
    });
    expect(gw.fake.count('observePod')).toBe(0);
  });

  it('a RunPod blip (unreadable list) is 200 with lookup UNREADABLE, never a 5xx', async () => {
    gw.fake.list = { kind: 'unreadable', reason: 'http 502' };
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
    gw.fake.script([
      { listed: listedPod('a', 'vol-qwen', 'EXITED'), observation: exited('a') },
      { listed: listedPod('b', 'vol-qwen', 'RUNNING'), observation: running('b') },
    ]);
    gw.fake.readDelayMs = 100;
    const answers = await Promise.all(Array.from({ length: 20 }, () => gw.request('GET', '/api/pods/qwen')));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.every((a) => a.body.podId === 'b')).toBe(true);
    expect(gw.fake.count('listPods')).toBe(1);
    expect(gw.fake.calls.filter((c) => c.method === 'observePod')).toEqual([
      { method: 'observePod', podId: 'a' },
      { method: 'observePod', podId: 'b' },
    ]);
  });

  it('a GET after the shared read settles reads again (nothing is cached)', async () => {
    gw.fake.script([{ listed: listedPod('b', 'vol-qwen', 'RUNNING'), observation: running('b') }]);
    await gw.request('GET', '/api/pods/qwen');
    await gw.request('GET', '/api/pods/qwen');
    expect(gw.fake.count('listPods')).toBe(2);
  });

  it('serves readiness, idle deadlines, wake progress and the last wake from Redis', async () => {
    gw.fake.script([{ listed: listedPod('b', 'vol-qwen', 'RUNNING'), observation: running('b') }]);
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

  it('never leaks a secret in a response body or a log line', () => {
    expect(leakedSecrets(gw)).toEqual([]);
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
    gw.fake.script([{ listed: listedPod('b', 'vol-qwen', 'RUNNING'), observation: running('b') }]);
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
    expect(gw.logs.some((line) => line.includes('"level":40') && line.includes('unreadable'))).toBe(true);
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
    gw.fake.script([
      { listed: listedPod('pa', 'vol-alpha', 'RUNNING'), observation: running('pa') },
      { listed: listedPod('pb', 'vol-beta', 'EXITED'), observation: exited('pb') },
    ]);
    const answer = await gw.request('GET', '/api/pods');
    expect(answer.status).toBe(200);
    const pods = answer.body.pods as Array<Record<string, unknown>>;
    expect(pods.map((p) => [p.name, p.podId, p.status])).toEqual([
      ['beta', 'pb', 'EXITED'],
      ['alpha', 'pa', 'RUNNING'],
    ]);
  });
});

describe('GET burst gathering', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('status-burst', { statusGatherMs: 150 });
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(() => gw.fake.reset());

  it('GETs of one burst arriving some milliseconds apart share one read', async () => {
    gw.fake.script([{ listed: listedPod('b', 'vol-qwen', 'RUNNING'), observation: running('b') }]);
    const answers: Array<Promise<unknown>> = [];
    for (let i = 0; i < 5; i += 1) {
      answers.push(gw.request('GET', '/api/pods/qwen'));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.all(answers);
    expect(gw.fake.count('listPods')).toBe(1);
    expect(gw.fake.count('observePod')).toBe(1);
  });

  it('nothing is reused once the read settled: a change made after it is seen by the next GET', async () => {
    await gw.request('GET', '/api/pods/qwen');
    gw.fake.script([{ listed: listedPod('new', 'vol-qwen', 'RUNNING'), observation: running('new') }]);
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body).toMatchObject({ podId: 'new', lookup: 'FOUND' });
  });
});
