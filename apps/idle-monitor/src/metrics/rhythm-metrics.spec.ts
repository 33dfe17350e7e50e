import { parseConfig, type PodwardenConfig } from '@podwarden/policies';
import { PodwardenMetrics, type RhythmSnapshot } from '@podwarden/platform';
import { RhythmMetrics } from './rhythm-metrics';

const PODS = JSON.stringify({
  pods: [
    { name: 'fixed-pod', volumeId: 'vol-1', idleMinutes: 15 },
    { name: 'learned-pod', volumeId: 'vol-2', idleMinutes: 15, idlePolicy: 'adaptive' },
    { name: 'new-pod', volumeId: 'vol-3', idleMinutes: 10, idlePolicy: 'adaptive' },
    { name: 'blind-pod', volumeId: 'vol-4', idleMinutes: 10, idlePolicy: 'adaptive' },
  ],
});

function config(): PodwardenConfig {
  const parsed = parseConfig({ RUNPOD_API_KEY: 'k', PODS_CONFIG: '/etc/pods.json' }, PODS);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config;
}

const LEARNED = {
  inForce: { minutes: 2, policy: 'adaptive', basis: 'learned from 40 idle gaps over 6 days' },
} as unknown as RhythmSnapshot;

describe(RhythmMetrics.name, () => {
  const shared = new PodwardenMetrics();
  const sut = new RhythmMetrics(shared, config(), {
    snapshot: (pod) => {
      if (pod === 'blind-pod') return Promise.reject(new Error('redis down'));
      return Promise.resolve(pod === 'learned-pod' ? LEARNED : null);
    },
  });
  const samples = async (name: string): Promise<string[]> =>
    (await shared.registry.metrics()).split('\n').filter((line) => line.startsWith(`${name}{`));

  it('exports the window in force: a fixed pod its own, an adaptive one what was applied, its fixed one before, NaN when unreadable', async () => {
    expect(await samples('podwarden_idle_window_minutes')).toEqual([
      'podwarden_idle_window_minutes{pod="fixed-pod",policy="fixed"} 15',
      'podwarden_idle_window_minutes{pod="learned-pod",policy="adaptive"} 2',
      'podwarden_idle_window_minutes{pod="new-pod",policy="adaptive"} 10',
      'podwarden_idle_window_minutes{pod="blind-pod",policy="adaptive"} Nan',
    ]);
  });

  it('counts pre-wakes by outcome, every adaptive pod starting at zero', async () => {
    sut.count('learned-pod', 'fired');
    sut.count('learned-pod', 'miss');
    const lines = await samples('podwarden_prewakes_total');
    expect(lines).toContain('podwarden_prewakes_total{pod="learned-pod",outcome="fired"} 1');
    expect(lines).toContain('podwarden_prewakes_total{pod="learned-pod",outcome="miss"} 1');
    expect(lines).toContain('podwarden_prewakes_total{pod="learned-pod",outcome="hit"} 0');
    expect(lines).toContain('podwarden_prewakes_total{pod="new-pod",outcome="fired"} 0');
    expect(lines.some((line) => line.includes('fixed-pod'))).toBe(false);
  });
});
