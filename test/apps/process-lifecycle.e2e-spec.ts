import { AppProcess, eventually, type AppName } from '../support/app-process';
import { freePort } from '../support/free-port';
import { deletePrefix } from '../support/redis-cleanup';
import { REDIS_URL, TEST_API_KEY, uniquePrefix } from '../support/test-env';

const PODWARDEN_APPS: AppName[] = ['gateway', 'waker', 'idle-monitor', 'inference-proxy'];

/** What docs/contract.md promises about every process: fail fast on bad config, stop cleanly on SIGTERM. */
describe('app processes', () => {
  it.each(PODWARDEN_APPS)(
    '%s exits non-zero with one clear stderr line when REDIS_URL is unparseable',
    async (app) => {
      const proc = AppProcess.start(
        app,
        { REDIS_URL: 'not a url at all', RUNPOD_API_KEY: TEST_API_KEY },
        `badcfg-${app}`,
      );
      const code = await proc.waitForExit();
      const stderr = proc.stderr.join('').trim().split('\n');

      expect(code).not.toBe(0);
      expect(stderr).toHaveLength(1);
      expect(stderr[0]).toMatch(/REDIS_URL/);
      expect(stderr[0]).not.toContain(TEST_API_KEY);
    },
  );

  it.each(PODWARDEN_APPS)(
    '%s exits non-zero naming the problem when PODS_CONFIG has duplicate names',
    async (app) => {
      const proc = AppProcess.start(
        app,
        { PODS_CONFIG: `${__dirname}/fixtures/duplicate-pods.json`, RUNPOD_API_KEY: TEST_API_KEY },
        `dupcfg-${app}`,
      );
      const code = await proc.waitForExit();

      expect(code).not.toBe(0);
      expect(proc.stderr.join('')).toMatch(/duplicate/i);
    },
  );

  it.each(PODWARDEN_APPS)(
    '%s refuses to start with one clear stderr line when DAILY_BUDGET_USD does not parse',
    async (app) => {
      // Falling back to "off" would remove the ceiling the operator believes in.
      const proc = AppProcess.start(
        app,
        { REDIS_URL, RUNPOD_API_KEY: TEST_API_KEY, DAILY_BUDGET_USD: '25,00' },
        `badbudget-${app}`,
      );
      const code = await proc.waitForExit();
      const stderr = proc.stderr.join('').trim().split('\n');

      expect(code).toBe(2);
      expect(stderr).toEqual([
        `[${app}] configuration error: DAILY_BUDGET_USD="25,00" is not a positive dot decimal such as 25.00; refusing to start without the ceiling it was meant to set`,
      ]);
    },
  );

  it('the simulator exits non-zero with one stderr line on a bad SIM_PORT', async () => {
    const proc = AppProcess.start('runpod-sim', { SIM_PORT: 'eighty' }, 'badcfg-sim');
    expect(await proc.waitForExit()).not.toBe(0);
    expect(proc.stderr.join('').trim().split('\n')).toHaveLength(1);
  });

  describe('graceful shutdown and worker health', () => {
    const prefix = uniquePrefix('lifecycle');
    afterAll(() => deletePrefix(prefix));

    it.each(PODWARDEN_APPS)('%s shuts down with exit code 0 on SIGTERM', async (app) => {
      const port = await freePort();
      const env = {
        REDIS_URL,
        QUEUE_PREFIX: prefix,
        PORT: String(port),
        HOST: '127.0.0.1',
        HEALTH_PORT: String(port),
        // The proxy serves its health on its own port.
        PROXY_PORT: String(port),
      };
      const proc = AppProcess.start(app, env, `sigterm-${app}`);
      // Started without a RunPod key, the idle monitor is by design not ready for
      // exactly one reason (unconfigured); every other item must be up.
      await eventually(
        async () => ((await startedAsConfigured(port)) ? true : undefined),
        20_000,
        `${app} ready`,
      );
      expect(await proc.stop()).toBe(0);
    });
  });
});

/** Ready, or down only on the `configured` item (a worker started without a RunPod key). */
async function startedAsConfigured(port: number): Promise<boolean> {
  const answer = await fetch(`http://127.0.0.1:${port}/health/ready`);
  if (answer.ok) return true;
  const body = (await answer.json()) as { error?: Record<string, unknown> };
  return Object.keys(body.error ?? {}).join() === 'configured';
}
