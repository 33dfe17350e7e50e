import {
  ActionLog,
  BillingStore,
  DiagnosisStore,
  ReadyLog,
  WakeHistory,
  type ActionRecord,
} from '@podwarden/platform';
import { startGateway, type GatewayHarness } from '../testing/gateway-harness';

function action(minute: number, overrides: Partial<ActionRecord> = {}): ActionRecord {
  return {
    at: `2026-10-02T10:0${minute}:00.000Z`,
    podName: 'qwen',
    action: 'Start',
    podId: `p${minute}`,
    gpuId: null,
    pricePerHour: null,
    httpStatus: 200,
    ok: true,
    trigger: 'wake',
    detail: null,
    ...overrides,
  };
}

describe('GET /api/pods/{name}/history', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('history');
    const actions = gw.app.get(ActionLog);
    await actions.record(action(1));
    await actions.record(
      action(2, { action: 'Create', gpuId: 'NVIDIA A40', pricePerHour: 0.89, httpStatus: 201 }),
    );
    await actions.record(
      action(3, { action: 'Stop', trigger: 'idle', ok: false, httpStatus: 500, detail: 'refused' }),
    );
    const wakes = gw.app.get(WakeHistory);
    await wakes.requested({
      podName: 'qwen',
      attemptId: 'w1',
      requestedAt: '2026-10-02T10:00:00.000Z',
      requestedBy: 'gateway',
    });
    await wakes.completed({
      podName: 'qwen',
      attemptId: 'w1',
      requestedAt: '2026-10-02T10:00:00.000Z',
      requestedBy: 'gateway',
      completedAt: '2026-10-02T10:02:00.000Z',
      outcome: 'Succeeded',
      wakeOutcome: 'Created',
      reason: 'created',
      podId: 'p2',
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.89,
      candidatesConsidered: 2,
      lastProviderStatus: 201,
    });
    await wakes.requested({
      podName: 'qwen',
      attemptId: 'w2',
      requestedAt: '2026-10-02T10:05:00.000Z',
      requestedBy: 'cockpit',
    });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('lists billable actions and wake attempts, newest first, in the contract shape', async () => {
    const answer = await gw.request('GET', '/api/pods/Qwen/history');
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('qwen');
    expect(answer.body.actions).toEqual([
      {
        at: '2026-10-02T10:03:00.000Z',
        action: 'Stop',
        podId: 'p3',
        gpuId: null,
        pricePerHour: null,
        httpStatus: 500,
        ok: false,
        trigger: 'idle',
        detail: 'refused',
      },
      {
        at: '2026-10-02T10:02:00.000Z',
        action: 'Create',
        podId: 'p2',
        gpuId: 'NVIDIA A40',
        pricePerHour: 0.89,
        httpStatus: 201,
        ok: true,
        trigger: 'wake',
        detail: null,
      },
      {
        at: '2026-10-02T10:01:00.000Z',
        action: 'Start',
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        httpStatus: 200,
        ok: true,
        trigger: 'wake',
        detail: null,
      },
    ]);
    const wakes = answer.body.wakes as Array<Record<string, unknown>>;
    expect(wakes.map((w) => [w.attemptId, w.outcome])).toEqual([
      ['w2', null],
      ['w1', 'Succeeded'],
    ]);
  });

  it('limit caps each list', async () => {
    const answer = await gw.request('GET', '/api/pods/qwen/history?limit=1');
    expect((answer.body.actions as unknown[]).length).toBe(1);
    expect((answer.body.wakes as unknown[]).length).toBe(1);
    expect((answer.body.runs as unknown[]).length).toBe(1);
  });

  it('runs join the actions, the ready log and the wakes: a stopped run with its figures', async () => {
    const runs = await startGateway('history-runs');
    try {
      const actions = runs.app.get(ActionLog);
      await actions.record(action(1, { action: 'Start', podId: 'p7' }));
      await actions.record(action(4, { action: 'Stop', podId: 'p7', trigger: 'idle', pricePerHour: 0.6 }));
      await runs.app.get(ReadyLog).record('qwen', {
        at: '2026-10-02T10:02:00.000Z',
        podId: 'p7',
        gpuId: 'NVIDIA L4',
        pricePerHour: 0.6,
      });
      // RunPod's bill for the run (reconciled an hour later) and its boot diagnosis, kept with it.
      await runs.app.get(BillingStore).save(
        {
          asOf: '2026-10-02T11:00:00.000Z',
          day: '2026-10-02',
          providerTodayUsd: 0.031,
          storageUsdPerDay: null,
          lagMs: 600_000,
        },
        new Map([['qwen', [{ podId: 'p7', startMs: Date.parse('2026-10-02T10:00:00Z'), usd: 0.031 }]]]),
        31_000,
      );
      await runs.app.get(DiagnosisStore).record('qwen', {
        podId: 'p7',
        at: '2026-10-02T10:01:30.000Z',
        kind: 'cold-pull',
        evidence: ['Downloading layer 3/40'],
        summary: 'the image is still being pulled',
      });
      const answer = await runs.request('GET', '/api/pods/qwen/history');
      expect(answer.body.runs).toEqual([
        {
          podId: 'p7',
          gpuId: 'NVIDIA L4',
          pricePerHour: 0.6,
          startedAt: '2026-10-02T10:01:00.000Z',
          readyAt: '2026-10-02T10:02:00.000Z',
          stoppedAt: '2026-10-02T10:04:00.000Z',
          uptimeSeconds: 180,
          timeToReadySeconds: 60,
          usableSeconds: 120,
          stopTrigger: 'idle',
          estimatedCostUsd: 0.03,
          billedUsd: 0.031,
          diagnosis: {
            kind: 'cold-pull',
            at: '2026-10-02T10:01:30.000Z',
            summary: 'the image is still being pulled',
          },
        },
      ]);
    } finally {
      await runs.close();
    }
  });

  it.each(['0', '201', 'abc', '-1', '2.5'])('limit=%s is a 400 problem', async (limit) => {
    const answer = await gw.request('GET', `/api/pods/qwen/history?limit=${limit}`);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 400, title: 'Bad limit' });
  });

  it('a query parameter the route does not define is a 400 problem naming it', async () => {
    const answer = await gw.request('GET', '/api/pods/qwen/history?limit=5&since=yesterday');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ title: 'Bad since', field: 'since', name: 'qwen' });
  });

  it('an unknown name is 404 before the query is checked', async () => {
    expect((await gw.request('GET', '/api/pods/llama/history?limit=0')).status).toBe(404);
  });

  it('an unknown name is 404', async () => {
    expect((await gw.request('GET', '/api/pods/llama/history')).status).toBe(404);
  });

  it('an empty history is four empty lists', async () => {
    const other = await startGateway('history-empty');
    try {
      expect((await other.request('GET', '/api/pods/qwen/history')).body).toEqual({
        name: 'qwen',
        actions: [],
        wakes: [],
        inDoubt: [],
        runs: [],
      });
    } finally {
      await other.close();
    }
  });
});
