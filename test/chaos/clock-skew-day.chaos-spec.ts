import { utcDay } from '@podwarden/policies';
import { eventually } from '../support/app-process';
import { skewedClock } from '../support/clock-skew';
import { FAST_TIMINGS, clearSimCalls, resetSim, seedPod } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN } from '../support/test-env';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  formatTicks,
  isStopTick,
  messagesWith,
  tickLines,
} from '../idle/support/idle-harness';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';
import { MINUTE, ledgerKeys, servingPodId, skewToPastMidnight, stopCallAt } from './support/clock-probes';

/**
 * Apps whose wall clocks disagree about what day it is and when a keep-alive
 * ends (the skewed-clock preload; the simulator keeps the real time). The
 * budget ledger keeps its times and its UTC day on Redis's clock, and the idle
 * monitor judges a keep-alive by its time left in Redis.
 */

describe.each([
  ['behind', -3 * MINUTE],
  ['ahead', 3 * MINUTE],
])('chaos: a waker three minutes %s of the idle monitor, across UTC midnight', (direction, wakerOffsetMs) => {
  let stack: Stack;
  let monitorSkew = 0;

  beforeAll(async () => {
    // The monitor (and the gateway beside it) read just past midnight when the case starts, or just before it.
    monitorSkew = skewToPastMidnight(wakerOffsetMs < 0 ? 60_000 : -60_000 + 10_000);
    stack = await Stack.start({
      name: `chaos-clock-day${direction === 'behind' ? 'b' : 'a'}`,
      wakers: 1,
      idleMonitors: 1,
      env: { ...FAST_IDLE_ENV, DAILY_BUDGET_USD: '10', WAKE_REQUEST_WAIT_SECONDS: '2' },
      perApp: {
        gateway: skewedClock(monitorSkew),
        'idle-monitor': skewedClock(monitorSkew),
        waker: skewedClock(monitorSkew + wakerOffsetMs),
      },
    });
  });
  afterAll(() => stack?.stop());

  chaosCase(
    "one reservation, settled once at the observed uptime into Redis's day, none left open: the ledger exact",
    false,
    async () => {
      await resetSim(stack, { timings: FAST_TIMINGS });
      await clearSimCalls(stack);
      const realDay = utcDay(Date.now());
      // The two apps read two different days: the boundary the case is about.
      expect(utcDay(Date.now() + monitorSkew)).not.toBe(utcDay(Date.now() + monitorSkew + wakerOffsetMs));
      void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await stack.wakers[0].waitForMessage('of the daily budget', 2 * EVENT_DEADLINE_MS);
      const reserved = await ledgerKeys(stack);
      expect(Object.keys(reserved.open)).toEqual(['qwen']);
      const reservation = JSON.parse(reserved.open.qwen) as {
        micros: number;
        pricePerHour: number;
        at: number;
      };
      // Stored on Redis's clock, not the waker's hours-off one; its day's counter opened in Redis's day.
      expect(Math.abs(reservation.at - Date.now())).toBeLessThan(EVENT_DEADLINE_MS);
      expect(Object.keys(reserved.spent)).toEqual([realDay]);

      const podId = await eventually(async () => servingPodId(stack), EVENT_DEADLINE_MS, 'the pod serving');
      await stopCallAt(stack, podId, 2 * EVENT_DEADLINE_MS);
      const settledLine = await stack.idleMonitors[0].waitForMessage(
        'run of qwen settled at',
        EVENT_DEADLINE_MS,
      );
      const settledMicros = Math.round(Number(settledLine.json?.settledUsd) * 1e6);

      const after = await ledgerKeys(stack);
      expect(after.open).toEqual({});
      // Once, in one day's counter: nothing lost, nothing counted twice.
      expect(after.spent).toEqual({ [realDay]: settledMicros });
      expect(messagesWith(stack.idleMonitors, 'run of qwen settled at')).toHaveLength(1);
      // At the price over the monitor's observed uptime (first up tick to the stop tick), give or take a tick.
      const ticks = tickLines(stack.idleMonitors);
      const firstUp = ticks.find((t) => t.signal !== 'NotRunning' && t.signal !== 'Unknown');
      const stopTick = ticks.find(isStopTick);
      if (firstUp === undefined || stopTick === undefined)
        throw new Error(`no run in the ticks:\n${formatTicks(ticks)}`);
      const observedMs = stopTick.at - firstUp.at;
      const perMs = (reservation.pricePerHour * 1e6) / 3_600_000;
      expect(settledMicros).toBeGreaterThanOrEqual(Math.floor(perMs * (observedMs - 2000)));
      expect(settledMicros).toBeLessThanOrEqual(Math.ceil(perMs * (observedMs + 2000)));
      expectCleanAudit(await settledAudit(stack, 0));
    },
  );
});

describe('chaos: a gateway three minutes behind sets a keep-alive', () => {
  const KEEP_ALIVE_MS = 30_000;
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'chaos-clock-keepalive',
      idleMonitors: 1,
      env: FAST_IDLE_ENV,
      perApp: { gateway: skewedClock(-3 * MINUTE) },
    });
  });
  afterAll(() => stack?.stop());

  chaosCase(
    "the idle stop waits until the keep-alive lapses on Redis's clock, not three minutes early",
    false,
    async () => {
      await resetSim(stack, { timings: FAST_TIMINGS });
      await clearSimCalls(stack);
      const since = Date.now();
      const podId = await seedPod(stack, { status: 'RUNNING', vllmReady: true });
      const kept = await stack.api('POST', '/api/pods/qwen/keepalive', {
        token: 'operator',
        body: { minutes: KEEP_ALIVE_MS / MINUTE },
      });
      expect(kept.status).toBe(200);
      const heldFrom = Date.now();
      const stoppedAt = await stopCallAt(stack, podId, KEEP_ALIVE_MS + 2 * EVENT_DEADLINE_MS);
      // Held off for the keep-alive's length (the pod was idle long before), then stopped.
      expect(stoppedAt - heldFrom).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 1000);
      expect(messagesWith(stack.idleMonitors, 'idle stop held off by keep-alive').length).toBeGreaterThan(0);
      // The KeepAlive row (not a billable write) carries the gateway's clock, three minutes before `since`.
      expectCleanAudit(await settledAudit(stack, since));
    },
  );
});
