import { parseConfig, toMicros, type PodList, type PodwardenConfig } from '@podwarden/policies';
import { PodwardenMetrics, type LedgerFigures } from '@podwarden/platform';
import { CostMetrics } from './cost-metrics';

function config(env: Record<string, string> = {}): PodwardenConfig {
  const parsed = parseConfig({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'vol-1', ...env }, null);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

function setup(
  figures: () => Promise<LedgerFigures>,
  unconfirmed: () => Promise<number>,
  env: Record<string, string> = {},
) {
  const shared = new PodwardenMetrics();
  const orphans = { found: 0, terminated: 0 };
  const asked: string[][] = [];
  const cfg = config(env);
  const metrics = new CostMetrics(shared, {
    config: cfg,
    ledger: { figures: () => figures() },
    pendingStops: {
      unconfirmed: (names) => {
        asked.push([...names]);
        return unconfirmed();
      },
    },
    orphans,
    now: () => Date.parse('2026-12-01T12:00:00Z'),
  });
  /** The exposition's sample lines of one metric name (labels included). */
  const samples = async (name: string): Promise<string[]> =>
    (await shared.registry.metrics())
      .split('\n')
      .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`));
  return { metrics, orphans, samples, asked, pods: cfg.pods };
}

const FIGURES: LedgerFigures = {
  spentMicros: toMicros(1.25),
  accruingMicros: toMicros(0.5),
  reservedMicros: toMicros(2),
};

function listed(...statuses: string[]): PodList {
  return {
    kind: 'listed',
    pods: statuses.map((status, i) => ({
      id: `p${i}`,
      name: null,
      status,
      volumeIds: ['vol-1'],
      costPerHr: 0.5,
      gpuId: null,
      createdAt: null,
    })),
  };
}

describe('CostMetrics on a real prom-client registry', () => {
  it('the daily budget is exported when set and absent when off', async () => {
    const on = setup(
      async () => FIGURES,
      async () => 0,
      { DAILY_BUDGET_USD: '25.50' },
    );
    expect(await on.samples('podwarden_daily_budget_usd')).toEqual(['podwarden_daily_budget_usd 25.5']);
    const off = setup(
      async () => FIGURES,
      async () => 0,
    );
    expect(await off.samples('podwarden_daily_budget_usd')).toEqual([]);
  });

  it('pods billing per volume follow the newest readable list; an unreadable one keeps the last', async () => {
    const h = setup(
      async () => FIGURES,
      async () => 0,
    );
    await h.metrics.read(h.pods, listed('RUNNING', 'EXITED', 'CREATED'));
    expect(await h.samples('podwarden_pods_billing')).toEqual([
      'podwarden_pods_billing{pod="qwen",volume="vol-1"} 2',
    ]);
    await h.metrics.read(h.pods, { kind: 'unreadable', reason: 'HTTP 500' });
    expect(await h.samples('podwarden_pods_billing')).toEqual([
      'podwarden_pods_billing{pod="qwen",volume="vol-1"} 2',
    ]);
    await h.metrics.read(h.pods, listed('EXITED'));
    expect(await h.samples('podwarden_pods_billing')).toEqual([
      'podwarden_pods_billing{pod="qwen",volume="vol-1"} 0',
    ]);
  });

  it('pods by status follow the newest readable list; a status gone leaves the exposition', async () => {
    const h = setup(
      async () => FIGURES,
      async () => 0,
    );
    await h.metrics.read(h.pods, listed('RUNNING', 'EXITED', 'EXITED'));
    expect(await h.samples('podwarden_pods_by_status')).toEqual([
      'podwarden_pods_by_status{pod="qwen",volume="vol-1",status="EXITED"} 2',
      'podwarden_pods_by_status{pod="qwen",volume="vol-1",status="RUNNING"} 1',
    ]);
    await h.metrics.read(h.pods, { kind: 'unreadable', reason: 'HTTP 500' });
    expect(await h.samples('podwarden_pods_by_status')).toHaveLength(2);
    await h.metrics.read(h.pods, listed('EXITED'));
    expect(await h.samples('podwarden_pods_by_status')).toEqual([
      'podwarden_pods_by_status{pod="qwen",volume="vol-1",status="EXITED"} 1',
    ]);
  });

  it("today's estimated spend is settled plus accruing; open reservations apart", async () => {
    const h = setup(
      async () => FIGURES,
      async () => 0,
    );
    expect(await h.samples('podwarden_spend_today_usd')).toEqual(['podwarden_spend_today_usd 1.75']);
    expect(await h.samples('podwarden_budget_reserved_usd')).toEqual(['podwarden_budget_reserved_usd 2']);
  });

  // prom-client writes NaN as "Nan" (Prometheus reads it either way).
  it('an unreadable ledger or pending-stop store reads NaN, never zero', async () => {
    const h = setup(
      () => Promise.reject(new Error('redis down')),
      () => Promise.reject(new Error('redis down')),
    );
    expect(await h.samples('podwarden_spend_today_usd')).toEqual(['podwarden_spend_today_usd Nan']);
    expect(await h.samples('podwarden_stops_unconfirmed')).toEqual(['podwarden_stops_unconfirmed Nan']);
  });

  it('orphans found and terminated are counters of the reaper totals', async () => {
    const h = setup(
      async () => FIGURES,
      async () => 0,
    );
    expect(await h.samples('podwarden_orphans_found_total')).toEqual(['podwarden_orphans_found_total 0']);
    h.orphans.found = 3;
    h.orphans.terminated = 2;
    expect(await h.samples('podwarden_orphans_found_total')).toEqual(['podwarden_orphans_found_total 3']);
    expect(await h.samples('podwarden_orphans_terminated_total')).toEqual([
      'podwarden_orphans_terminated_total 2',
    ]);
  });

  it('stops not yet confirmed are counted across the configured pods', async () => {
    const h = setup(
      async () => FIGURES,
      async () => 2,
    );
    expect(await h.samples('podwarden_stops_unconfirmed')).toEqual(['podwarden_stops_unconfirmed 2']);
    expect(h.asked).toEqual([['qwen']]);
  });
});
