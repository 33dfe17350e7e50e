import { ActionLog, RedisKeys, type ActionRecord } from '@podwarden/platform';
import { captureLogs, connectTestRedis } from '@podwarden/testing';
import type Redis from 'ioredis';
import { eventually } from '../support/app-process';
import { Stack } from '../support/stack';
import type { SseClient } from '../support/sse-client';
import { IDLE_TEST_TIMINGS, seedPod } from '../idle/support/idle-harness';

/**
 * RunPod's own bill against our records, on real processes: the idle
 * monitor's reconcile job (every second here) reads the simulator's hourly
 * billing. A pod on our volume billed with no start or create of ours, and a
 * known pod billed for twice its recorded life, each raise a billing-mismatch
 * event and a Warning; a pod billed for its recorded life raises nothing.
 * Then the daily budget, judged on the larger of ledger and RunPod's bill,
 * refuses a wake the ledger alone would have allowed.
 */
jest.setTimeout(180_000);

const H = 3_600_000;
const DEADLINE = 60_000;

interface MismatchEvent {
  readonly podId: string;
  readonly kind: string;
  readonly billedUsd: number;
  readonly explainedUsd: number | null;
  readonly hours: number;
  readonly detail: string;
}

describe("provider billing reconciled against podwarden's records", () => {
  let stack: Stack;
  let stream: SseClient;
  let redis: Redis;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-provider-billing',
      wakers: 1,
      idleMonitors: 1,
      env: {
        CHECK_SECONDS: '1',
        BILLING_RECONCILE_SECONDS: '1',
        BILLING_LAG_MINUTES: '0',
        DAILY_BUDGET_USD: '1.00',
        MAX_RUNTIME_MINUTES: '60',
      },
    });
    const reset = await stack.simRequest('POST', '/_sim/reset', {
      timings: { ...IDLE_TEST_TIMINGS, billingLagMs: 0 },
    });
    expect(reset.status).toBe(200);
    stream = await stack.eventStream('/api/pods/qwen/events');
    redis = connectTestRedis();
  });

  afterAll(async () => {
    await stream?.close();
    redis?.disconnect();
    await stack?.stop();
  });

  const mismatches = (podId: string): MismatchEvent[] =>
    stream.events
      .filter((e) => e.event === 'billing-mismatch')
      .map((e) => stream.data(e) as unknown as MismatchEvent)
      .filter((m) => m.podId === podId);
  const charge = async (podId: string, usd: number, at: number) => {
    const answer = await stack.simRequest('POST', '/_sim/billing/charges', {
      podId,
      usd,
      at: new Date(at).toISOString(),
    });
    expect(answer.status).toBe(201);
  };

  it('a pod on our volume billed with no record of ours raises billing-mismatch, a Warning naming it', async () => {
    const ghost = await seedPod(stack, { id: 'ghostpod', status: 'EXITED' });
    await charge(ghost, 1.5, Date.now() - 60_000);
    await stream.waitFor('billing-mismatch for ghostpod', (e) => e.event === 'billing-mismatch', DEADLINE);
    const [mismatch] = mismatches(ghost);
    expect(mismatch).toMatchObject({ kind: 'unknown-pod', billedUsd: 1.5, explainedUsd: null, hours: 1 });
    expect(mismatch.detail).toMatch(
      /^pod ghostpod billed 1\.5000 USD with no start or create of ours, in 1 hour/,
    );
    const warning = await stack.idleMonitors[0].waitForMessage('billing mismatch: pod ghostpod', DEADLINE);
    expect(warning.json?.level).toBe(40);
  });

  it('a known pod billed for twice its recorded life exceeds it; one billed for its life does not', async () => {
    // Two runs podwarden recorded an hour ago (an hour each), as its waker and idle monitor write them.
    const log = new ActionLog(redis, new RedisKeys(stack.prefix), captureLogs().logger);
    const now = Date.now();
    const row = (podId: string, action: ActionRecord['action'], at: number): ActionRecord => ({
      at: new Date(at).toISOString(),
      podName: 'qwen',
      action,
      podId,
      gpuId: 'NVIDIA RTX A6000',
      pricePerHour: 0.49,
      httpStatus: action === 'Create' ? 201 : 200,
      ok: true,
      trigger: action === 'Create' ? 'wake' : 'idle',
      detail: null,
    });
    for (const podId of ['knowndouble', 'knownfair']) {
      await log.record(row(podId, 'Create', now - 2 * H));
      await log.record(row(podId, 'Stop', now - H));
    }
    // RunPod bills the first for two hours, the second for its one.
    await charge('knowndouble', 0.49, now - 2 * H + 60_000);
    await charge('knowndouble', 0.49, now - H + 60_000);
    await charge('knownfair', 0.49, now - 2 * H + 60_000);

    await eventually(
      async () => (mismatches('knowndouble').length > 0 ? true : undefined),
      DEADLINE,
      'exceeds',
    );
    const [double] = mismatches('knowndouble');
    expect(double).toMatchObject({ kind: 'exceeds', billedUsd: 0.98, hours: 2 });
    expect(double.explainedUsd).toBeCloseTo(0.49, 3);
    expect(double.detail).toMatch(/more than its recorded life explains \(0\.49\d* USD\)/);
    // Published in the same reconcile as the other findings: none for the pod billed for its life.
    expect(mismatches('knownfair')).toEqual([]);

    // Each run carries what RunPod billed for it.
    const history = await stack.api<{
      runs: { podId: string; billedUsd: number | null; estimatedCostUsd: number }[];
    }>('GET', '/api/pods/qwen/history?limit=20');
    const runOf = (podId: string) => history.body.runs.find((r) => r.podId === podId);
    expect(runOf('knowndouble')?.billedUsd).toBeCloseTo(0.98, 6);
    expect(runOf('knownfair')?.billedUsd).toBeCloseTo(0.49, 6);
    expect(runOf('knownfair')?.estimatedCostUsd).toBeCloseTo(0.49, 2);
  });

  it("the daily budget is judged on RunPod's bill when it is the larger: a leak the ledger missed refuses the wake", async () => {
    const status = await stack.api<{ spendToday: Record<string, unknown> }>('GET', '/api/pods/qwen');
    expect(status.body.spendToday).toMatchObject({
      estimate: true,
      spentUsd: 0,
      accruingUsd: 0,
      reservedUsd: 0,
    });
    expect(status.body.spendToday.providerUsd as number).toBeGreaterThanOrEqual(1.5);
    expect(Date.parse(String(status.body.spendToday.providerAsOf))).toBeGreaterThan(Date.now() - DEADLINE);

    // The ghost pod is EXITED on the volume: the wake would start it, after reserving 0.49 USD.
    const start = await stack.api<{ outcome: string; detail: string }>('POST', '/api/pods/qwen/start', {
      token: 'operator',
    });
    expect(start.status).toBe(409);
    expect(start.body.outcome).toBe('Failed');
    expect(start.body.detail).toMatch(
      /^daily budget exceeded: spent \d+\.\d\d USD \(RunPod's billing today, above our ledger's 0\.00 USD\) \+ reserved 0\.00 USD \+ this wake's 0\.49 USD/,
    );
    const starts = await stack.simRequest<{ calls: unknown[] }>(
      'GET',
      '/_sim/calls?method=POST&path=/pods/ghostpod/action',
    );
    expect(starts.body.calls).toEqual([]);
  });
});
