import { UsageStore } from '@podwarden/platform';
import { OPERATOR, WAKER, startGateway, type GatewayHarness } from '../testing/gateway-harness';

const MINUTE = 60_000;

describe('GET /api/pods/{name}/usage', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGateway('usage');
  });
  afterAll(() => gw.close());

  it('401 without the operator token (also the wake token), before 404; 404 for an unknown name', async () => {
    expect((await gw.request('GET', '/api/pods/qwen/usage')).status).toBe(401);
    expect((await gw.request('GET', '/api/pods/qwen/usage', WAKER)).status).toBe(401);
    expect((await gw.request('GET', '/api/pods/nope/usage')).status).toBe(401);
    expect((await gw.request('GET', '/api/pods/nope/usage', OPERATOR)).status).toBe(404);
  });

  it('400 for days that are not a whole number in range', async () => {
    for (const days of ['0', '2.5', 'x', '9999']) {
      const answer = await gw.request('GET', `/api/pods/qwen/usage?days=${days}`, OPERATOR);
      expect(answer.status).toBe(400);
    }
  });

  it('answers the record as a trace: uses oldest first, the measured boot, the last price and the stops; days bounds it', async () => {
    const before = await gw.request('GET', '/api/pods/qwen/usage', OPERATOR);
    expect(before.body).toEqual({
      bootMinutes: 3,
      pricePerHour: gw.config.pods[0].maxPricePerHour,
      requests: [],
      stops: [],
    });

    const usage = gw.app.get(UsageStore);
    const now = Date.now();
    const old = now - 3 * 86_400_000;
    await usage.recordUse('qwen', { start: now - 10 * MINUTE, end: now - 10 * MINUTE + 6_500 });
    await usage.recordUse('qwen', { start: old, end: old + 2_000 });
    await usage.recordBoot('qwen', {
      wakeAt: now - 20 * MINUTE,
      readyAt: now - 20 * MINUTE + 3.5 * MINUTE,
      gpuId: 'NVIDIA A40',
      pricePerHour: 0.44,
      prewake: false,
    });
    await usage.recordStop('qwen', { at: now - 2 * MINUTE, trigger: 'idle' });
    await usage.recordStop('qwen', { at: old + MINUTE, trigger: 'manual' });
    const all = await gw.request('GET', '/api/pods/QWEN/usage', OPERATOR);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      bootMinutes: 3.5,
      pricePerHour: 0.44,
      requests: [
        { at: new Date(old).toISOString(), seconds: 2 },
        { at: new Date(now - 10 * MINUTE).toISOString(), seconds: 6.5 },
      ],
      stops: [
        { at: new Date(old + MINUTE).toISOString(), trigger: 'manual' },
        { at: new Date(now - 2 * MINUTE).toISOString(), trigger: 'idle' },
      ],
    });
    const lastDay = await gw.request('GET', '/api/pods/qwen/usage?days=1', OPERATOR);
    expect(lastDay.body.requests).toEqual([{ at: new Date(now - 10 * MINUTE).toISOString(), seconds: 6.5 }]);
    expect(lastDay.body.stops).toEqual([{ at: new Date(now - 2 * MINUTE).toISOString(), trigger: 'idle' }]);
  });
});
