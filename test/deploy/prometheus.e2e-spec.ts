import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, TEST_LOG_DIR } from '../support/app-process';
import { freePort } from '../support/free-port';
import { trackChild } from '../support/tracked-children';
import { DEPLOY, requireTool } from './deploy-files';
import { SCRAPED_APPS, startMetricsStack, type MetricsStack } from './metrics-stack';

interface Target {
  readonly labels: { job: string };
  readonly health: string;
  readonly lastError: string;
}
interface Alert {
  readonly labels: { alertname: string };
  readonly state: string;
}
interface RuleGroup {
  readonly rules: { name: string; health: string; lastError?: string; type: string }[];
}

const ALERT = 'PodwardenIdleTicksStale';
/** Deadlines bound a hang only: scrapes run every 2 s, evaluations every second. */
const PROMETHEUS_DEADLINE_MS = 60_000;

/**
 * Debian's prometheus scraping the built apps with deploy/prometheus/alerts.yml
 * loaded: every target up, then the idle-ticks alert firing while the idle
 * monitor is killed and resolving once it is back. Only the rules' `for:`
 * durations are shortened (to 2 s) and the intervals to seconds, so the
 * scenario runs in seconds; the expressions are the shipped ones.
 */
describe('a real Prometheus against the running stack', () => {
  let running: MetricsStack;
  let prometheus: ChildProcess | null = null;
  let dir: string;
  let url: string;

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error}`);
    return body.data;
  };
  const alertState = async (): Promise<string> => {
    const { alerts } = await api<{ alerts: Alert[] }>('/api/v1/alerts');
    return alerts.find((a) => a.labels.alertname === ALERT)?.state ?? 'inactive';
  };
  const targetsByJob = async (): Promise<Record<string, string>> => {
    const { activeTargets } = await api<{ activeTargets: Target[] }>('/api/v1/targets');
    return Object.fromEntries(activeTargets.map((t) => [t.labels.job, t.health]));
  };

  beforeAll(async () => {
    requireTool('prometheus', 'scripts/ensure-prometheus.sh');
    running = await startMetricsStack('deploy-prometheus', { CHECK_SECONDS: '1' });
    dir = mkdtempSync(join(tmpdir(), 'podwarden-prometheus-'));
    const rules = readFileSync(join(DEPLOY, 'prometheus', 'alerts.yml'), 'utf8').replace(
      /^(\s+for:) \S+$/gm,
      '$1 2s',
    );
    writeFileSync(join(dir, 'alerts.yml'), rules);
    const jobs = SCRAPED_APPS.map(
      (app) =>
        `  - job_name: podwarden-${app}\n    static_configs:\n      - targets: ['${running.targets[app]}']\n`,
    ).join('');
    writeFileSync(
      join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 2s\n  scrape_timeout: 2s\n  evaluation_interval: 1s\n` +
        `rule_files:\n  - alerts.yml\nscrape_configs:\n${jobs}`,
    );
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    mkdirSync(TEST_LOG_DIR, { recursive: true });
    const log = createWriteStream(join(TEST_LOG_DIR, `prometheus-${port}.log`));
    prometheus = trackChild(
      spawn(
        'prometheus',
        [
          `--config.file=${join(dir, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(dir, 'data')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    prometheus.stdout?.pipe(log);
    prometheus.stderr?.pipe(log);
    await eventually(
      async () => ((await fetch(`${url}/-/ready`)).ok ? true : undefined),
      PROMETHEUS_DEADLINE_MS,
      'prometheus ready',
    );
  });

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await running?.stack.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes every app, and every rule evaluates without error', async () => {
    const expected = Object.fromEntries(SCRAPED_APPS.map((app) => [`podwarden-${app}`, 'up']));
    await eventually(
      async () => {
        const seen = await targetsByJob();
        return SCRAPED_APPS.every((app) => seen[`podwarden-${app}`] === 'up') ? seen : undefined;
      },
      PROMETHEUS_DEADLINE_MS,
      'every target up',
    ).catch(async (error: Error) => {
      const { activeTargets } = await api<{ activeTargets: Target[] }>('/api/v1/targets');
      throw new Error(`${error.message}: ${JSON.stringify(activeTargets)}`);
    });
    expect(await targetsByJob()).toEqual(expected);
    const rules = await eventually(
      async () => {
        const { groups } = await api<{ groups: RuleGroup[] }>('/api/v1/rules');
        const all = groups.flatMap((g) => g.rules);
        return all.every((r) => r.health !== 'unknown') ? all : undefined;
      },
      PROMETHEUS_DEADLINE_MS,
      'every rule evaluated',
    );
    expect(rules.filter((r) => r.health !== 'ok')).toEqual([]);
    expect(rules.length).toBeGreaterThan(15);
    // Before the first scrape of the idle monitor the alert is pending or firing (no target up yet).
    await eventually(
      async () => ((await alertState()) === 'inactive' ? true : undefined),
      PROMETHEUS_DEADLINE_MS,
      `${ALERT} inactive with every target up`,
    );
  });

  it('the idle-ticks alert fires while the idle monitor is killed and resolves when it is back', async () => {
    const monitorPort = running.targets['idle-monitor'].split(':')[1];
    await running.stack.idleMonitors[0].kill9();
    await eventually(
      async () => ((await alertState()) === 'firing' ? true : undefined),
      PROMETHEUS_DEADLINE_MS,
      `${ALERT} firing`,
    );
    expect((await targetsByJob())['podwarden-idle-monitor']).toBe('down');

    await running.stack.startIdleMonitor({ HEALTH_PORT: monitorPort });
    await eventually(
      async () => ((await alertState()) === 'inactive' ? true : undefined),
      PROMETHEUS_DEADLINE_MS,
      `${ALERT} resolved`,
    );
    expect((await targetsByJob())['podwarden-idle-monitor']).toBe('up');
  });

  it("the dashboard's every expression is valid PromQL on this server", async () => {
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana', 'podwarden.json'), 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    for (const { expr } of dashboard.panels.flatMap((p) => p.targets)) {
      const response = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
      const body = (await response.json()) as { status: string; error?: string };
      expect({ expr, status: body.status, error: body.error }).toEqual({
        expr,
        status: 'success',
        error: undefined,
      });
    }
  });
});
