import { eventually, type AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { Stack } from '../support/stack';
import { EVENT_DEADLINE_MS, simCalls } from './support/idle-harness';

interface Probe {
  readonly status: number;
  readonly body: { details?: Record<string, { status: string; [field: string]: unknown }> };
}

const WARN = 40;
const VOLUME_HINT = '(RUNPOD_VOLUME_ID, or volumeId in PODS_CONFIG)';

/**
 * An idle monitor started without a RunPod key or a volume: it ticks and can
 * watch nothing, so it says so once at start-up, and its readiness and
 * /metrics show it unconfigured; a configured one shows neither.
 */
describe('an idle monitor without a RunPod key or a volume', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'idle-unconfigured', gateway: false, env: { CHECK_SECONDS: '1' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const probe = async (port: number): Promise<Probe> => {
    const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
    return { status: response.status, body: (await response.json()) as Probe['body'] };
  };
  const scrape = async (port: number): Promise<string> =>
    (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const warnings = (monitor: AppProcess): string[] =>
    monitor.lines.filter((line) => line.json?.level === WARN).map((line) => line.msg);

  /** Waits until the monitor has completed two ticks (it ran, skipping what it cannot watch). */
  const ticked = (port: number): Promise<string> =>
    eventually(
      async () => {
        const text = await scrape(port);
        return /podwarden_jobs_total\{queue="idle-tick",outcome="completed"\} [2-9]/.test(text)
          ? text
          : undefined;
      },
      EVENT_DEADLINE_MS,
      'two completed ticks',
    );

  it.each<[string, Record<string, string>, string[], string]>([
    [
      'no RUNPOD_API_KEY',
      { RUNPOD_API_KEY: '' },
      ['RUNPOD_API_KEY'],
      'idle monitor unconfigured, missing RUNPOD_API_KEY: it watches no pod and stops nothing',
    ],
    [
      'no volume',
      { RUNPOD_VOLUME_ID: '' },
      [`a volume for "qwen" ${VOLUME_HINT}`],
      `idle monitor unconfigured, missing a volume for "qwen" ${VOLUME_HINT}: it watches no pod and stops nothing`,
    ],
  ])(
    '%s: one Warning at start-up naming it; readiness and /metrics show it unconfigured',
    async (_w, env, missing, warning) => {
      const port = await freePort();
      const monitor = await stack.startIdleMonitor({ ...env, HEALTH_PORT: String(port) });
      const text = await ticked(port);

      expect(warnings(monitor)).toEqual([warning]);
      expect(text).toMatch(/^podwarden_idle_monitor_configured 0$/m);
      const ready = await probe(port);
      expect(ready.status).toBe(503);
      expect(ready.body.details).toMatchObject({
        redis: { status: 'up' },
        worker: { status: 'up' },
        scheduler: { status: 'up' },
        configured: { status: 'down', message: warning, missing, watched: [] },
      });
      // It ticked and called RunPod for nothing.
      expect(await simCalls(stack)).toEqual([]);
    },
  );

  it('configured: no such Warning, readiness up with the pod it watches, the gauge 1', async () => {
    const port = await freePort();
    const monitor = await stack.startIdleMonitor({ HEALTH_PORT: String(port) });
    const text = await ticked(port);

    expect(warnings(monitor).filter((msg) => msg.includes('unconfigured'))).toEqual([]);
    expect(text).toMatch(/^podwarden_idle_monitor_configured 1$/m);
    const ready = await probe(port);
    expect(ready.body.details).toMatchObject({ configured: { status: 'up', watched: ['qwen'] } });
    expect(ready.status).toBe(200);
  });
});
