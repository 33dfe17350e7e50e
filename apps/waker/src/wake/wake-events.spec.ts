import type { Job } from 'bullmq';
import { BudgetLedger, RedisClock, RedisKeys, WakeGate, WakeProgressStore } from '@podwarden/platform';
import {
  RecordedEvents,
  actionAccepted,
  captureLogs,
  found,
  useTestRedis,
  unreadableList,
  volumeWith,
  type FakeRunPod,
} from '@podwarden/testing';
import { fixedClock } from './testing/fixed-clock';
import { newWakeJobRunner } from './testing/new-wake-run';
import { InstantSleep } from './testing/instant-sleep';
import { MemoryIntents } from './testing/memory-intents';
import { RecordingActionLog } from './testing/recording-action-log';
import { RecordingWakeHistory } from './testing/recording-wake-history';
import { TEST_POD_NAME, testConfig } from './testing/test-config';
import { scriptedRunPod } from './testing/wake-run-harness';

const db = useTestRedis('wake-events');
const KEYS = new RedisKeys(db.prefix);

describe('WakeAttempt: what a wake announces on the event stream', () => {
  function runWake(runpod: FakeRunPod, attemptId: string, budget?: { dailyUsd: string }) {
    const events = new RecordedEvents();
    const logs = captureLogs();
    const intents = new MemoryIntents();
    const runner = newWakeJobRunner({
      config: testConfig(budget ? { DAILY_BUDGET_USD: budget.dailyUsd, MAX_RUNTIME_MINUTES: '60' } : {}),
      ledger: budget ? new BudgetLedger(db.redis, KEYS, new RedisClock(db.redis)) : undefined,
      client: runpod,
      actions: new RecordingActionLog(undefined, intents),
      intents,
      logger: logs.logger,
      sleep: new InstantSleep().sleep,
      now: fixedClock(),
      gate: new WakeGate(db.redis, KEYS),
      history: new RecordingWakeHistory(runpod),
      progress: new WakeProgressStore(db.redis, KEYS),
      events,
      gateLeaseMs: 30_000,
      joinPollMs: 5,
      joinSleep: new InstantSleep().sleep,
    });
    const job = { id: attemptId, data: { podName: TEST_POD_NAME, requestedBy: 'tester' } } as unknown as Job;
    return { events, done: runner.process(job) };
  }

  it('requested first, progress on the way, completed last with the outcome and the pod', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Running', 1));
    const { events, done } = runWake(runpod, 'job-E');
    await done;

    const types = events.types();
    expect(types[0]).toBe('wake-requested');
    expect(types.at(-1)).toBe('wake-completed');
    expect(types.slice(1, -1).every((t) => t === 'wake-progress')).toBe(true);
    expect(types.length).toBeGreaterThan(2);
    expect(events.of('wake-requested')).toEqual([{ attemptId: 'job-E', requestedBy: 'tester' }]);
    expect(events.of('wake-progress')[0]).toMatchObject({ attemptId: 'job-E', phase: 'lookup' });
    expect(events.of('wake-completed')).toEqual([
      expect.objectContaining({
        attemptId: 'job-E',
        outcome: 'Succeeded',
        wakeOutcome: 'AlreadyRunning',
        podId: 'p1',
        proxyUrl: 'https://p1-8000.proxy.runpod.net',
      }),
    ]);
    expect(events.events.every((e) => e.pod === TEST_POD_NAME)).toBe(true);
  });

  it('a wake that fails is announced as completed with its outcome and reason', async () => {
    const runpod = scriptedRunPod().alwaysList(unreadableList());
    const { events, done } = runWake(runpod, 'job-F');
    await done.catch(() => undefined);

    const completed = events.of('wake-completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ attemptId: 'job-F', podId: null, reason: expect.any(String) });
    expect(completed[0].outcome).not.toBe('Succeeded');
  });

  it('a start the daily budget refuses is announced as budget-refused with the figures, before the completion', async () => {
    // The stopped pod's start would reserve 2.00 USD/h (the price cap) × the 60-minute cap.
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Exited'));
    const { events, done } = runWake(runpod, 'job-B', { dailyUsd: '1.50' });
    await done;

    expect(runpod.count('start')).toBe(0);
    expect(events.of('budget-refused')).toEqual([
      {
        attemptId: 'job-B',
        detail: expect.stringMatching(
          /^daily budget exceeded: spent 0\.00 USD .* DAILY_BUDGET_USD 1\.50 USD/,
        ),
        spentUsd: 0,
        reservedUsd: 0,
        providerUsd: null,
        wakeUsd: 2,
        budgetUsd: 1.5,
        pricePerHour: 2,
        minutes: 60,
      },
    ]);
    const types = events.types();
    expect(types.indexOf('budget-refused')).toBeLessThan(types.indexOf('wake-completed'));
    expect(events.of('wake-completed')[0]).toMatchObject({
      outcome: 'Refused',
      reason: events.of('budget-refused')[0].detail,
    });
  });

  it('a start within the budget announces no refusal', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Exited'), found('p1', 'Running', 1))
      .onStart(actionAccepted(200));
    const { events, done } = runWake(runpod, 'job-W', { dailyUsd: '5.00' });
    await done;

    expect(runpod.count('start')).toBe(1);
    expect(events.of('wake-completed')).toEqual([expect.objectContaining({ outcome: 'Succeeded' })]);
    expect(events.of('budget-refused')).toEqual([]);
  });
});
