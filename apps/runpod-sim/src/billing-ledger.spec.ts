import { BillingLedger, BillingReport } from './billing-ledger';
import { SHORT_TIMINGS, SimHarness, VALID_CREATE_BODY } from './testing/sim-harness';

describe(BillingLedger.name, () => {
  it('bills each open interval at the hourly price per second, up to now while open', () => {
    const sut = new BillingLedger();
    sut.open('p1', 'gpu', 3.6, 0);
    sut.close('p1', 10_000);
    sut.open('p1', 'gpu', 3.6, 20_000);
    const report = sut.report(25_000);
    expect(report.pods).toEqual([
      {
        podId: 'p1',
        gpuId: 'gpu',
        pricePerHour: 3.6,
        billedSeconds: 15,
        usd: 0.015,
        open: true,
        intervals: [
          { from: 0, to: 10_000 },
          { from: 20_000, to: null },
        ],
      },
    ]);
    expect(report.totalUsd).toBe(0.015);
  });

  it('opening an open account and closing a closed one change nothing', () => {
    const sut = new BillingLedger();
    sut.open('p1', 'gpu', 1.8, 0);
    sut.open('p1', 'gpu', 1.8, 5_000);
    sut.close('p1', 10_000);
    sut.close('p1', 20_000);
    expect(sut.report(30_000).pods[0].billedSeconds).toBe(10);
  });

  it('totals every pod', () => {
    const sut = new BillingLedger();
    sut.open('a', 'gpu', 3.6, 0);
    sut.open('b', 'gpu', 7.2, 0);
    expect(sut.report(1000)).toMatchObject({ totalSeconds: 2, totalUsd: 0.003 });
  });
});

describe('GET /_sim/billing', () => {
  let h: SimHarness;
  const billing = async (): Promise<BillingReport & { balance: number }> =>
    (await h.admin('GET', '/billing')).json as BillingReport & { balance: number };

  afterEach(() => h.close());

  it('bills from create until stop, nothing while EXITED, again from start until terminate', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS, balance: 10 });
    const pod = await h.createPod({ gpu: { id: 'NVIDIA L40S', count: 1 } }); // 1.09/h
    h.clock.advance(600_000);
    await h.api('POST', `/pods/${pod.id}/action`, { action: 'stop' });
    h.clock.advance(3_600_000);
    await h.api('POST', `/pods/${pod.id}/action`, { action: 'start' });
    h.clock.advance(300_000);
    await h.api('DELETE', `/pods/${pod.id}`);
    h.clock.advance(3_600_000);

    const report = await billing();
    expect(report.pods).toHaveLength(1);
    expect(report.pods[0]).toMatchObject({
      podId: pod.id,
      pricePerHour: 1.09,
      billedSeconds: 900,
      open: false,
    });
    expect(report.pods[0].usd).toBeCloseTo(0.2725, 6);
    expect(report.totalUsd).toBeCloseTo(0.2725, 6);
    expect(report.balance).toBeCloseTo(10 - 0.2725, 6);
    expect(report.rule).toMatch(/from create/);
  });

  it('seconds are simulated: at speed 60 one real second bills a minute', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS, speed: 60 });
    await h.createPod({ gpu: { id: 'NVIDIA A100 80GB PCIe', count: 1 } }); // 1.59/h
    h.clock.advance(1000);
    const report = await billing();
    expect(report.totalSeconds).toBe(60);
    expect(report.totalUsd).toBeCloseTo(1.59 / 60, 6);
  });

  it('a pod forced into ERROR keeps billing; one forced EXITED stops', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS });
    const erroring = await h.createPod();
    const exiting = await h.createPod();
    h.clock.advance(10_000);
    await h.admin('POST', `/pods/${erroring.id}/status`, { status: 'ERROR' });
    await h.admin('POST', `/pods/${exiting.id}/status`, { status: 'EXITED' });
    h.clock.advance(10_000);
    const seconds = Object.fromEntries((await billing()).pods.map((p) => [p.podId, p.billedSeconds]));
    expect(seconds).toEqual({ [erroring.id]: 20, [exiting.id]: 10 });
  });

  it('spending lowers the balance until create is refused with 402', async () => {
    h = await SimHarness.start({ timings: SHORT_TIMINGS, balance: 1 });
    await h.createPod(); // 0.49/h, needs 0.49 left
    h.clock.advance(3_600_000); // spent 0.49, 0.51 left
    expect((await h.api('POST', '/pods', VALID_CREATE_BODY)).status).toBe(201);
    h.clock.advance(300_000); // two pods at 0.98/h for 5 min: 0.51 - 0.0817 left
    expect((await billing()).balance).toBeCloseTo(0.51 - 0.98 / 12, 5);
    const refused = await h.api('POST', '/pods', VALID_CREATE_BODY);
    expect(refused.status).toBe(402);
  });
});
