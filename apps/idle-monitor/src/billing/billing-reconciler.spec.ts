import { Registry } from 'prom-client';
import type { BilledBucket, ListedPod } from '@podwarden/policies';
import type { PodBillingRead } from '@podwarden/runpod-client';
import { BillingStore, RedisKeys, type ActionRecord, type PodwardenMetrics } from '@podwarden/platform';
import { RecordedEvents, captureLogs, testConfig, useTestRedis } from '@podwarden/testing';
import { BillingMetrics } from './billing-metrics';
import { BillingReconciler } from './billing-reconciler';

const H = 3_600_000;
const NOW = Date.parse('2026-12-01T12:30:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const listed = (id: string, volumeId: string | null, status = 'RUNNING'): ListedPod => ({
  id,
  name: `pod-${id}`,
  status,
  volumeIds: volumeId === null ? [] : [volumeId],
  costPerHr: 0.49,
  gpuId: 'NVIDIA RTX A6000',
  createdAt: iso(NOW - 5 * H),
});

const action = (at: number, kind: ActionRecord['action'], podId: string): ActionRecord => ({
  at: iso(at),
  podName: 'qwen',
  action: kind,
  podId,
  gpuId: 'NVIDIA RTX A6000',
  pricePerHour: 0.49,
  httpStatus: 200,
  ok: true,
  trigger: kind === 'Stop' ? 'idle' : 'wake',
  detail: null,
});

describe('BillingReconciler (real Redis, scripted RunPod)', () => {
  const db = useTestRedis('billing');

  function setUp(options: {
    list: ListedPod[] | null;
    actions: ActionRecord[];
    billing: Record<string, PodBillingRead>;
    env?: Record<string, string>;
  }) {
    const config = testConfig({ RUNPOD_VOLUME_ID: 'vol-1', RUNPOD_POD_NAME: 'qwen', ...options.env });
    const store = new BillingStore(db.redis, new RedisKeys(db.prefix));
    const events = new RecordedEvents();
    const logs = captureLogs();
    const registry = new Registry();
    const asked: string[] = [];
    const reconciler = new BillingReconciler({
      config,
      client: {
        listPods: async () =>
          options.list === null
            ? { kind: 'unreadable', reason: 'http 500' }
            : { kind: 'listed', pods: options.list },
      },
      insights: {
        podBilling: async (podId) => {
          asked.push(podId);
          return options.billing[podId] ?? { kind: 'read', buckets: [] };
        },
        accountBilling: async () => ({
          kind: 'read',
          buckets: [{ startMs: Date.parse('2026-11-30T00:00:00Z'), totalUsd: 1, storageUsd: 0.47 }],
        }),
      },
      actions: { recent: async () => options.actions },
      store,
      events,
      metrics: new BillingMetrics({ registry } as unknown as PodwardenMetrics),
      logger: logs.logger,
      now: () => NOW,
    });
    return { reconciler, store, events, logs, registry, asked };
  }

  const bucket = (podId: string, startMs: number, usd: number): BilledBucket => ({ podId, startMs, usd });
  const read = (...buckets: BilledBucket[]): PodBillingRead => ({ kind: 'read', buckets });

  it('a pod on the volume billed with no record of ours: a billing-mismatch naming the pod, hours and amount', async () => {
    const t = setUp({
      list: [listed('ghost', 'vol-1')],
      actions: [],
      billing: { ghost: read(bucket('ghost', NOW - 2.5 * H, 0.49), bucket('ghost', NOW - 1.5 * H, 0.49)) },
    });
    expect(await t.reconciler.run()).toEqual({
      kind: 'read',
      pods: 1,
      providerTodayUsd: 0.98,
      mismatches: 1,
    });
    expect(t.events.of('billing-mismatch')).toEqual([
      expect.objectContaining({
        podId: 'ghost',
        podName: 'qwen',
        kind: 'unknown-pod',
        billedUsd: 0.98,
        hours: 2,
        fromHour: '2026-12-01T10:00:00.000Z',
        toHour: '2026-12-01T11:00:00.000Z',
        detail:
          'pod ghost billed 0.9800 USD with no start or create of ours, in 2 hour(s) from 2026-12-01T10:00:00.000Z to 2026-12-01T11:00:00.000Z',
      }),
    ]);
    expect(t.logs.lines.find((l) => l.billingMismatch === true)?.level).toBe(40);
    expect(await t.registry.getSingleMetricAsString('podwarden_billing_mismatches')).toContain(
      'podwarden_billing_mismatches{pod="qwen",kind="unknown-pod"} 1',
    );
  });

  it("a known pod billed for twice its recorded life: exceeds; its buckets and today's provider spend are kept", async () => {
    const t = setUp({
      list: [],
      actions: [action(NOW - 2.5 * H, 'Stop', 'p1'), action(NOW - 3.5 * H, 'Create', 'p1')],
      billing: { p1: read(bucket('p1', NOW - 3.5 * H, 0.49), bucket('p1', NOW - 2.5 * H, 0.49)) },
    });
    await t.reconciler.run();
    expect(t.events.of('billing-mismatch')).toEqual([
      expect.objectContaining({ podId: 'p1', kind: 'exceeds', billedUsd: 0.98, explainedUsd: 0.49 }),
    ]);
    expect(await t.store.podBuckets('qwen')).toHaveLength(2);
    expect(await t.store.providerMicros(NOW)).toBe(980_000);
    expect(await t.store.snapshot()).toEqual({
      asOf: iso(NOW),
      day: '2026-12-01',
      providerTodayUsd: 0.98,
      storageUsdPerDay: 0.47,
      lagMs: 600_000,
    });
  });

  it('a pod billed for its recorded life raises nothing; a foreign pod is neither read nor judged', async () => {
    const t = setUp({
      list: [listed('foreign', 'vol-other')],
      actions: [action(NOW - 2.5 * H, 'Stop', 'p1'), action(NOW - 3.5 * H, 'Create', 'p1')],
      billing: { p1: read(bucket('p1', NOW - 3.5 * H, 0.49)) },
    });
    await t.reconciler.run();
    expect(t.events.events).toEqual([]);
    expect(t.asked).toEqual(['p1']);
  });

  it('fail closed: one unreadable billing read leaves the last reconcile standing (no lower figure)', async () => {
    const first = setUp({
      list: [listed('ghost', 'vol-1')],
      actions: [],
      billing: { ghost: read(bucket('ghost', NOW - H, 2)) },
    });
    await first.reconciler.run();
    const second = setUp({
      list: [listed('ghost', 'vol-1')],
      actions: [],
      billing: { ghost: { kind: 'unreadable', reason: 'http 503' } },
    });
    expect(await second.reconciler.run()).toEqual({ kind: 'unreadable', reason: 'pod billing: http 503' });
    expect(await second.store.providerMicros(NOW)).toBe(2_000_000);
    expect(second.events.events).toEqual([]);
  });

  it('an unreadable pod list reads no billing at all', async () => {
    const t = setUp({ list: null, actions: [], billing: {} });
    expect(await t.reconciler.run()).toEqual({ kind: 'unreadable', reason: 'pod list: http 500' });
    expect(t.asked).toEqual([]);
    expect(await t.store.snapshot()).toBeNull();
  });

  it('an unconfigured monitor (no volume) reads nothing and warns nothing: its start-up Warning says it', async () => {
    const t = setUp({
      list: [listed('ghost', 'vol-1')],
      actions: [],
      billing: {},
      env: { RUNPOD_VOLUME_ID: '' },
    });
    expect(await t.reconciler.run()).toEqual({ kind: 'skipped', reason: 'unconfigured' });
    expect(t.asked).toEqual([]);
    expect(t.logs.messages('warn')).toEqual([]);
    expect(await t.store.snapshot()).toBeNull();
  });
});
