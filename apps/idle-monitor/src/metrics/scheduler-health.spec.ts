import type { SchedulerPresence } from '@podwarden/policies';
import { PodwardenMetrics, type ReadinessCheck } from '@podwarden/platform';
import { SchedulerHealth } from './scheduler-health';

function subject(presence: SchedulerPresence, restored = 0) {
  const metrics = new PodwardenMetrics();
  const checks = new Map<string, ReadinessCheck>();
  new SchedulerHealth(
    metrics,
    { addCheck: (name, check) => checks.set(name, check) },
    { presence: () => Promise.resolve(presence), restored: () => restored },
  );
  const sample = async (name: string): Promise<number | undefined> =>
    (await metrics.registry.getSingleMetric(name)?.get())?.values[0]?.value;
  return { checks, sample };
}

describe(SchedulerHealth.name, () => {
  it.each<[SchedulerPresence, number]>([
    ['present', 1],
    ['missing', 0],
    ['unknown', Number.NaN],
  ])('scheduler %s ⇒ podwarden_idle_scheduler_present %d', async (presence, value) => {
    expect(await subject(presence).sample('podwarden_idle_scheduler_present')).toBe(value);
  });

  it.each<[string, SchedulerPresence, { up: boolean; details: Record<string, unknown> }]>([
    ['present: up', 'present', { up: true, details: { presence: 'present' } }],
    [
      'missing: down, saying no tick runs',
      'missing',
      {
        up: false,
        details: {
          presence: 'missing',
          message: 'the idle tick scheduler is missing from Redis: no idle tick runs until it is restored',
        },
      },
    ],
    [
      'unknown: down, never up on an unread scheduler',
      'unknown',
      {
        up: false,
        details: { presence: 'unknown', message: 'the idle tick scheduler could not be read from Redis' },
      },
    ],
  ])('readiness "scheduler" when %s', async (_why, presence, item) => {
    expect(await subject(presence).checks.get('scheduler')!()).toEqual(item);
  });

  it("the restored counter reports the scheduler's count at each scrape", async () => {
    expect(await subject('present', 3).sample('podwarden_idle_scheduler_restored_total')).toBe(3);
  });
});
