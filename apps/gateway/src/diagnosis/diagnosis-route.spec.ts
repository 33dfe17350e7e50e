import { utcDay } from '@podwarden/policies';
import { BillingStore, DiagnosisStore, WakeHistory, type StoredDiagnosis } from '@podwarden/platform';
import { OPERATOR, startGateway, type GatewayHarness } from '../testing/gateway-harness';

const LOOP: StoredDiagnosis = {
  podId: 'p9',
  at: '2026-09-11T09:05:00.000Z',
  kind: 'restart-loop',
  evidence: ['start container p9: begin', "PermissionError: [Errno 13] Permission denied: '/workspace'"],
  summary: 'restart loop: 4 container starts over 3 min, each failing with the same early error',
};

describe('boot diagnosis and provider billing on the gateway', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('diagnosis');
  });
  afterAll(() => gw.close());

  it('GET …/diagnosis: 401 without the operator token (before 404), 404 for an unknown name', async () => {
    expect((await gw.request('GET', '/api/pods/qwen/diagnosis')).status).toBe(401);
    expect((await gw.request('GET', '/api/pods/nope/diagnosis')).status).toBe(401);
    expect((await gw.request('GET', '/api/pods/nope/diagnosis', OPERATOR)).status).toBe(404);
  });

  it('GET …/diagnosis: null before any boot was diagnosed, then the latest, case-insensitive name', async () => {
    const none = await gw.request('GET', '/api/pods/qwen/diagnosis', OPERATOR);
    expect(none.status).toBe(200);
    expect(none.contentType).toContain('application/json');
    expect(none.text).toBe('null');
    await gw.app.get(DiagnosisStore).record('qwen', LOOP);
    const latest = await gw.request('GET', '/api/pods/QWEN/diagnosis', OPERATOR);
    expect(latest.body).toEqual(LOOP);
  });

  it("lastWake.reason carries the boot diagnosis of the wake's pod", async () => {
    await gw.app.get(DiagnosisStore).record('qwen', LOOP);
    await gw.app.get(WakeHistory).completed({
      podName: 'qwen',
      attemptId: 'att-9',
      requestedAt: '2026-09-11T09:00:00.000Z',
      requestedBy: 'gateway',
      completedAt: '2026-09-11T09:01:00.000Z',
      outcome: 'Succeeded',
      wakeOutcome: 'Created',
      reason: 'created on NVIDIA A40',
      podId: 'p9',
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.89,
      candidatesConsidered: 1,
      lastProviderStatus: 201,
    });
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect((answer.body.lastWake as Record<string, unknown>).reason).toBe(
      `created on NVIDIA A40; boot diagnosis (restart-loop): ${LOOP.summary}`,
    );
  });

  it("spendToday shows RunPod's billed amount beside the estimate, each labelled", async () => {
    const now = Date.now();
    await gw.app.get(BillingStore).save(
      {
        asOf: new Date(now).toISOString(),
        day: utcDay(now),
        providerTodayUsd: 3.456,
        storageUsdPerDay: 0.47,
        lagMs: 600_000,
      },
      new Map(),
      3_456_000,
    );
    const answer = await gw.request('GET', '/api/pods/qwen');
    expect(answer.body.spendToday).toMatchObject({
      estimate: true,
      providerUsd: 3.46,
      providerAsOf: new Date(now).toISOString(),
      providerBasis: expect.stringMatching(/^provider-attributed/),
      storageUsdPerDay: 0.47,
    });
  });
});
