import { planStatusRead, statusFreshness, type StatusReadPlan } from './status-freshness';

describe('planStatusRead', () => {
  const freshness = { maxAgeMs: 2000, refreshBudgetMs: 30000 };
  const now = 1_000_000;

  const rows: [string, number | null, StatusReadPlan][] = [
    ['no snapshot (never read, or invalidated by a write)', null, 'refresh-first'],
    ['read just now', now, 'serve'],
    ['exactly at the bound', now - 2000, 'serve'],
    ['one ms past the bound', now - 2001, 'serve-and-refresh'],
    ['past the bound, within one refresh budget', now - 32000, 'serve-and-refresh'],
    ['older than the bound plus a refresh: nobody was polling', now - 32001, 'refresh-first'],
    ['an hour old', now - 3_600_000, 'refresh-first'],
    ['slightly ahead (clock skew within the bound)', now + 2000, 'serve'],
    ['far ahead: not trusted as fresh', now + 2001, 'serve-and-refresh'],
  ];

  it.each(rows)('%s', (_name, observedAt, plan) => {
    expect(planStatusRead(observedAt, now, freshness)).toBe(plan);
  });
});

describe('statusFreshness', () => {
  it('takes the bound from STATUS_MAX_AGE_MS and budgets a list then the observes', () => {
    expect(
      statusFreshness({ statusMaxAgeMs: 2000, runpodConnectTimeoutMs: 5000, runpodTimeoutMs: 10000 }),
    ).toEqual({ maxAgeMs: 2000, refreshBudgetMs: 30000 });
  });
});
