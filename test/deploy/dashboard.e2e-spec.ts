import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPLOY } from './deploy-files';
import { declaredMetrics, SCRAPED_APPS, startMetricsStack, type MetricsStack } from './metrics-stack';

interface Dashboard {
  readonly panels: { readonly title: string; readonly targets: { readonly expr: string }[] }[];
}

const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'podwarden.json'), 'utf8')) as Dashboard;
const expressions = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));

/** The podwarden metric names an expression reads (label names and values inside {} excluded). */
function metricNames(expr: string): string[] {
  const withoutMatchers = expr.replace(/\{[^}]*\}/g, '').replace(/"[^"]*"/g, '');
  return [...withoutMatchers.matchAll(/\bpodwarden_[a-z0-9_]+\b/g)].map((m) => m[0]);
}

/** A name the apps export: declared itself, or a histogram's _bucket/_sum/_count series. */
function exported(name: string, declared: Map<string, string>): boolean {
  if (declared.has(name)) return true;
  const base = /^(.+)_(bucket|sum|count)$/.exec(name)?.[1];
  return base !== undefined && declared.get(base) === 'histogram';
}

/** deploy/grafana/podwarden.json reads only metrics the built apps serve on their live /metrics. */
describe('Grafana dashboard', () => {
  let running: MetricsStack;
  let declared: Map<string, string>;

  beforeAll(async () => {
    running = await startMetricsStack('deploy-dashboard');
    declared = new Map();
    for (const app of SCRAPED_APPS) {
      const response = await fetch(`http://${running.targets[app]}/metrics`);
      expect({ app, status: response.status }).toEqual({ app, status: 200 });
      for (const [name, type] of declaredMetrics(await response.text())) declared.set(name, type);
    }
  });

  afterAll(async () => {
    await running?.stack.stop();
  });

  it('every metric name in its expressions is one the apps export', () => {
    const names = [...new Set(expressions.flatMap(metricNames))];
    expect(names.length).toBeGreaterThan(15);
    expect(names.filter((name) => !exported(name, declared))).toEqual([]);
  });

  it('has the panels operators asked for', () => {
    const uses = (metric: string) => expressions.some((expr) => expr.includes(metric));
    for (const metric of [
      'podwarden_pods_billing',
      'podwarden_pods_by_status',
      'podwarden_spend_today_usd',
      'podwarden_provider_spend_today_usd',
      'podwarden_daily_budget_usd',
      'podwarden_jobs_total{job="podwarden-waker",queue="wake"}',
      'podwarden_job_duration_seconds_bucket{job="podwarden-waker",queue="wake"}',
      'podwarden_stop_actions_total',
      'outcome) (rate(podwarden_proxy_requests_total',
      'podwarden_proxy_hold_seconds_bucket',
      'podwarden_runpod_requests_total',
      'route="/health/ready",status="503"',
    ])
      expect({ metric, used: uses(metric) }).toEqual({ metric, used: true });
  });

  it('the metric-name check itself tells an unknown name from a known one', () => {
    expect(exported('podwarden_job_duration_seconds_bucket', declared)).toBe(true);
    expect(exported('podwarden_pods_billing', declared)).toBe(true);
    expect(exported('podwarden_pod_phases', declared)).toBe(false);
    expect(exported('podwarden_pods_by_status_bucket', declared)).toBe(false);
    expect(metricNames('sum by (le) (rate(podwarden_x_bucket{job="podwarden-waker"}[5m]))')).toEqual([
      'podwarden_x_bucket',
    ]);
  });
});
