import type { MonitorSetup } from '@podwarden/policies';
import { PodwardenMetrics, type ReadinessCheck } from '@podwarden/platform';
import { SetupHealth } from './setup-health';

function subject(setup: MonitorSetup) {
  const metrics = new PodwardenMetrics();
  const checks = new Map<string, ReadinessCheck>();
  new SetupHealth(metrics, { addCheck: (name, check) => checks.set(name, check) }, setup);
  const configured = async (): Promise<number | undefined> =>
    (await metrics.registry.getSingleMetric('podwarden_idle_monitor_configured')?.get())?.values[0]?.value;
  return { check: checks.get('configured')!, configured };
}

describe(SetupHealth.name, () => {
  it('configured: readiness "configured" up with the watched pods, gauge 1', async () => {
    const { check, configured } = subject({ configured: true, watched: ['qwen'], missing: [] });
    expect(await check()).toEqual({ up: true, details: { watched: ['qwen'] } });
    expect(await configured()).toBe(1);
  });

  it('no key: readiness "configured" down with the start-up warning and what is missing, gauge 0', async () => {
    const { check, configured } = subject({ configured: false, watched: [], missing: ['RUNPOD_API_KEY'] });
    expect(await check()).toEqual({
      up: false,
      details: {
        message: 'idle monitor unconfigured, missing RUNPOD_API_KEY: it watches no pod and stops nothing',
        missing: ['RUNPOD_API_KEY'],
        watched: [],
      },
    });
    expect(await configured()).toBe(0);
  });

  it('some pods watched, one without a volume: still down and 0 (that pod bills unwatched)', async () => {
    const { check, configured } = subject({
      configured: false,
      watched: ['a'],
      missing: ['a volume for "b"'],
    });
    expect(await check()).toMatchObject({ up: false, details: { watched: ['a'] } });
    expect(await configured()).toBe(0);
  });
});
