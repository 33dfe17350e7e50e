import type { ReserveOutcome } from '@podwarden/platform';
import { LEVEL, RecordedEvents, captureLogs } from '@podwarden/testing';
import { WakeRunContext } from '../wake-run-context';
import { FIXED_NOW, fixedClock } from '../testing/fixed-clock';
import { newWakeDependencies } from '../testing/new-wake-run';
import { InstantSleep } from '../testing/instant-sleep';
import { MemoryIntents } from '../testing/memory-intents';
import { RecordingActionLog } from '../testing/recording-action-log';
import { RecordingProgressReporter } from '../testing/recording-progress-reporter';
import { testConfig, testPod } from '../testing/test-config';
import { scriptedRunPod } from '../testing/wake-run-harness';
import { reserveBudget } from './reserve-budget';

const NOW = Date.parse(FIXED_NOW);
const PRICE = 0.86;
// MAX_RUNTIME_MINUTES 60: the worst case of one wake is one hour at the price.
const WAKE_MICROS = 860_000;

const figures = (spent: number, reserved: number, provider: number | null = null) => ({
  spentMicros: spent,
  reservedMicros: reserved,
  accruingMicros: 0,
  providerMicros: provider,
});

/** A ledger that answers what the spec scripts and records what it was asked. */
function setup(
  env: Record<string, string> = { DAILY_BUDGET_USD: '5' },
  answer?: () => Promise<ReserveOutcome>,
) {
  const config = testConfig({ MAX_RUNTIME_MINUTES: '60', REDIS_WRITE_TIMEOUT_MS: '20', ...env });
  const pod = testPod(config);
  const logs = captureLogs();
  const events = new RecordedEvents();
  const asked: unknown[][] = [];
  const ledger = {
    reserve: (...args: unknown[]) => {
      asked.push(args);
      return answer ? answer() : Promise.resolve<ReserveOutcome>({ kind: 'reserved', ...figures(0, 0) });
    },
  };
  const intents = new MemoryIntents();
  const runpod = scriptedRunPod();
  const deps = newWakeDependencies({
    config,
    client: runpod,
    actions: new RecordingActionLog(runpod, intents),
    intents,
    logger: logs.logger,
    sleep: new InstantSleep(runpod).sleep,
    now: fixedClock(),
    ledger,
    events,
  });
  const ctx = new WakeRunContext(deps, pod, new RecordingProgressReporter(), undefined, undefined, 'job-1');
  return {
    ctx,
    pod,
    logs,
    events,
    asked,
  };
}

describe('reserveBudget', () => {
  it("reserves price × the runtime cap under the wake's id, and logs it at Information", async () => {
    const { ctx, pod, asked, logs, events } = setup();
    await expect(reserveBudget(ctx, PRICE)).resolves.toBeNull();
    expect(asked).toEqual([
      [pod.name, { micros: WAKE_MICROS, pricePerHour: PRICE, at: NOW, attemptId: 'job-1' }, 5_000_000],
    ]);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.info,
        pod: pod.name,
        pricePerHour: PRICE,
        minutes: 60,
        reserveUsd: 0.86,
        budgetUsd: 5,
        msg: 'reserved 0.86 USD of the daily budget',
      }),
    ]);
    expect(events.events).toEqual([]);
  });

  it('with the cap off it reserves the rest of the UTC day', async () => {
    const { ctx, asked } = setup({ DAILY_BUDGET_USD: '5', MAX_RUNTIME_MINUTES: '0' });
    await reserveBudget(ctx, 1);
    // 10:15 UTC: 13 h 45 min left of the day at 1 USD/h.
    expect(asked[0][1]).toEqual(expect.objectContaining({ micros: 13_750_000 }));
  });

  it('without a budget the reservation is still made (for spendToday), with no budget to refuse by', async () => {
    const { ctx, asked } = setup({}, () => Promise.resolve({ kind: 'refused', ...figures(9e6, 0) }));
    await expect(reserveBudget(ctx, PRICE)).resolves.toBeNull();
    expect(asked[0][2]).toBeNull();
  });

  it('a refusal ends the wake as refused, with the figures logged and announced as budget-refused', async () => {
    const { ctx, pod, logs, events } = setup({ DAILY_BUDGET_USD: '5' }, () =>
      Promise.resolve({ kind: 'refused', ...figures(4_500_000, 300_000, 2_000_000) }),
    );
    const result = await reserveBudget(ctx, PRICE);
    expect(result).toEqual(expect.objectContaining({ outcome: 'Failed', failureKind: 'refused' }));
    const reason = result?.message ?? '';
    expect(reason).toMatch(/^daily budget exceeded: spent 4\.50 USD/);
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        pod: pod.name,
        spentMicros: 4_500_000,
        reservedMicros: 300_000,
        budgetMicros: 5_000_000,
        providerMicros: 2_000_000,
        msg: reason,
      }),
    ]);
    expect(events.of('budget-refused')).toEqual([
      {
        attemptId: 'job-1',
        detail: reason,
        spentUsd: 4.5,
        reservedUsd: 0.3,
        providerUsd: 2,
        wakeUsd: 0.86,
        budgetUsd: 5,
        pricePerHour: PRICE,
        minutes: 60,
      },
    ]);
  });

  it('a refusal without a RunPod bill today announces none', async () => {
    const { ctx, events } = setup({ DAILY_BUDGET_USD: '5' }, () =>
      Promise.resolve({ kind: 'refused', ...figures(4_500_000, 0) }),
    );
    await reserveBudget(ctx, PRICE);
    expect(events.of('budget-refused')[0]).toEqual(expect.objectContaining({ providerUsd: null }));
  });

  it('with a budget, a ledger it cannot write fails closed: refused, the figures unknown', async () => {
    const { ctx, logs, events } = setup({ DAILY_BUDGET_USD: '5' }, () =>
      Promise.reject(new Error('READONLY')),
    );
    const result = await reserveBudget(ctx, PRICE);
    const reason = 'daily budget ledger unreadable (READONLY); nothing was started or created';
    expect(result).toEqual(
      expect.objectContaining({ outcome: 'Failed', failureKind: 'refused', message: reason }),
    );
    expect(logs.lines).toEqual([
      expect.objectContaining({ level: LEVEL.warn, err: 'READONLY', msg: reason }),
    ]);
    expect(events.of('budget-refused')).toEqual([
      expect.objectContaining({ detail: reason, spentUsd: null, reservedUsd: null, providerUsd: null }),
    ]);
  });

  it('with a budget, a ledger that does not answer in time fails closed too', async () => {
    const { ctx } = setup({ DAILY_BUDGET_USD: '5' }, () => new Promise<never>(() => undefined));
    const result = await reserveBudget(ctx, PRICE);
    expect(result?.message).toBe(
      'daily budget ledger unreadable (budget reservation timed out after 20 ms); nothing was started or created',
    );
  });

  it('without a budget, a ledger it cannot write is one Warning and the wake goes on', async () => {
    const { ctx, logs, events } = setup({}, () => Promise.reject(new Error('READONLY')));
    await expect(reserveBudget(ctx, PRICE)).resolves.toBeNull();
    expect(logs.lines).toEqual([
      expect.objectContaining({
        level: LEVEL.warn,
        err: 'READONLY',
        msg: 'budget ledger not written (no budget set)',
      }),
    ]);
    expect(events.events).toEqual([]);
  });
});
