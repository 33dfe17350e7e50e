import { eventually } from '../support/app-process';
import { clearSimCalls, injectFault, resetSim, seedPod, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { REDIS_URL, TEST_OPERATOR_TOKEN } from '../support/test-env';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';
import { FAST_IDLE_ENV, IDLE_TEST_TIMINGS, ticksSince } from '../idle/support/idle-harness';
import { restartGateway, simAnswered, wakeEndedIn, wakeReaches } from './support/crash-probes';

/**
 * kill -9 of each app at the steps of a wake the first crash spec does not
 * reach: the waker before its create and during a terminate, the waker while
 * an operator's stop lands on its wake, the gateway during a manual stop and
 * the idle monitor during an idle stop. A delay fault on the step's RunPod
 * call holds the app inside the step while it dies; the call still takes
 * effect on RunPod's side, as a real one would. Then the app comes back and
 * the audit runs.
 */
const SLOW_BOOT = {
  provisioningMs: 4000,
  startingMs: 500,
  gpuAttachMs: 100,
  modelLoadMs: 500,
  chatMs: 200,
  terminateMs: 0,
};

type Action = { action: string; podId: string | null; detail: string | null };

const TERMINATE_DELAY_MS = 5000;
type LastWake = { attemptId: string; outcome: string; reason: string } | null;

const lastWake = async (stack: Stack): Promise<LastWake> =>
  (await stack.api<{ lastWake: LastWake }>('GET', '/api/pods/qwen')).body.lastWake;
/** The attempt's completed record, as GET shows it once the waker has written it. */
const recordOf = (stack: Stack, attemptId: string) =>
  eventually(
    async () => {
      const seen = await lastWake(stack);
      return seen?.attemptId === attemptId ? seen : undefined;
    },
    30_000,
    `the record of wake ${attemptId}`,
  );
const history = async (stack: Stack): Promise<Action[]> =>
  (await stack.api<{ actions: Action[] }>('GET', '/api/pods/qwen/history?limit=100')).body.actions;
/** The Stop row a reconciled intent leaves, waited for past the client timeout (10 s) and a tick. */
const reconciledStop = (stack: Stack, podId: string) =>
  eventually(
    async () =>
      (await history(stack)).find(
        (a) =>
          a.action === 'Stop' &&
          a.podId === podId &&
          (a.detail ?? '').startsWith('reconciled from an intent'),
      ),
    60_000,
    'the reconciled Stop row',
  );
const billing = async (stack: Stack) =>
  (await simPods(stack)).filter((p) => !['EXITED', 'TERMINATED'].includes(p.status));

describe('chaos: kill -9 the waker at each step', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'chaos-steps',
      wakers: 1,
      env: { WAKE_JOB_LOCK_MS: '2000', WAKE_REQUEST_WAIT_SECONDS: '2' },
    });
  });
  afterAll(() => stack?.stop());

  const beginCase = async (patch: Record<string, unknown> = {}): Promise<number> => {
    await resetSim(stack, { timings: SLOW_BOOT, ...patch });
    await clearSimCalls(stack);
    return Date.now();
  };

  const wakeEnded = (before: LastWake) =>
    eventually(
      async () => {
        const seen = await lastWake(stack);
        return seen !== null && seen.attemptId !== before?.attemptId ? seen : undefined;
      },
      120_000,
      'the wake recorded',
    );

  chaosCase(
    'kill -9 the waker before its create (reading the catalog), restart it: one create',
    true,
    async () => {
      const since = await beginCase();
      const before = await lastWake(stack);
      await injectFault(stack, { route: 'catalog', kind: 'delay', delayMs: 5000 });
      void startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await wakeReaches(stack, REDIS_URL, 'reading the GPU catalog');
      await stack.wakers[stack.wakers.length - 1].kill9();
      expect((await simWrites(stack)).filter((w) => w === 'POST /pods')).toEqual([]);
      await stack.startWaker();
      const wake = await wakeEnded(before);

      expect(wake.outcome).toBe('Succeeded');
      expect(await simWrites(stack)).toEqual(['POST /pods']);
      expect(await billing(stack)).toHaveLength(1);
      expect((await history(stack)).filter((a) => a.action === 'Create')).toHaveLength(1);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  chaosCase(
    'kill -9 the waker during the terminate of a stale pod, restart it: one pod bills',
    true,
    async () => {
      const since = await beginCase({ listOrder: 'stale-first' });
      const stale = await seedPod(stack, { status: 'EXITED' });
      await injectFault(stack, { route: 'action', podId: stale, kind: 'status', status: 500 });
      await injectFault(stack, {
        route: 'terminate',
        podId: stale,
        kind: 'delay',
        delayMs: TERMINATE_DELAY_MS,
      });
      const started = startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await wakeReaches(stack, REDIS_URL, `terminating stale pod ${stale}`, 120_000);
      await stack.wakers[stack.wakers.length - 1].kill9();
      const restarted = await stack.startWaker();
      const attemptId = String((await started).body.attemptId);
      // The re-delivered job, run through by the restarted waker: it reconciles the interrupted
      // Terminate, re-reads the volume and finds the replacement serving.
      expect(await wakeEndedIn(restarted, attemptId)).not.toBe('Failed');
      expect((await recordOf(stack, attemptId)).outcome).toBe('Succeeded');
      await eventually(
        async () => {
          // Terminated, or already gone from the API (the simulator drops it after terminateMs).
          const seen = (await simPods(stack)).find((p) => p.id === stale);
          return seen === undefined || seen.status === 'TERMINATED' ? true : undefined;
        },
        60_000,
        'the stale pod terminated',
      );
      expect((await history(stack)).some((a) => a.action === 'Terminate')).toBe(true);

      // Whether the killed waker's DELETE left before the kill is unknowable, so its reconciled row
      // (written by the re-delivered run, seen above) is an interrupted one: 0 or 1 write. A late
      // arrival can only be that DELETE of the stale pod, which every check below admits.
      const writes = await simWrites(stack);
      expect(writes.filter((w) => w === 'POST /pods')).toHaveLength(1);
      expect(writes.filter((w) => w.startsWith('DELETE')).every((w) => w === `DELETE /pods/${stale}`)).toBe(
        true,
      );
      const up = await billing(stack);
      expect(up).toHaveLength(1);
      expect(up[0].id).not.toBe(stale);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  chaosCase(
    'an operator stop during a wake, the waker killed (-9) while it lands and restarted: nothing bills',
    true,
    async () => {
      const since = await beginCase();
      const started = startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
      await eventually(
        async () => ((await simWrites(stack)).includes('POST /pods') ? true : undefined),
        60_000,
        'the create',
      );
      const [created] = await simPods(stack);
      await injectFault(stack, { route: 'action', podId: created.id, kind: 'delay', delayMs: 3000 });
      const stopped = stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });
      await stack.wakers[stack.wakers.length - 1].kill9();
      expect((await stopped).status).toBe(200);
      const restarted = await stack.startWaker();
      const attemptId = String((await started).body.attemptId);
      // The re-delivered job, run through by the restarted waker: fenced by the stop, it ends Failed
      // before any billable call (a wake that went on would start the stopped pod again).
      expect(await wakeEndedIn(restarted, attemptId)).toBe('Failed');
      expect(await recordOf(stack, attemptId)).toMatchObject({
        outcome: 'Failed',
        reason: expect.stringContaining('stopped by operator'),
      });

      expect(await billing(stack)).toEqual([]);
      expect((await simWrites(stack)).filter((w) => w === 'POST /pods')).toHaveLength(1);
      const report = await settledAudit(stack, since);
      expect(report.billing).toEqual([]);
      expectCleanAudit(report);
    },
  );

  chaosCase(
    'kill -9 the gateway during a manual stop, restart it: the stop is in the history',
    false,
    async () => {
      const since = await beginCase();
      const podId = await seedPod(stack, { status: 'RUNNING' });
      await injectFault(stack, { route: 'action', podId, kind: 'delay', delayMs: 5000 });
      const stopping = fetch(`${stack.gatewayUrl}/api/pods/qwen/stop`, {
        method: 'POST',
        headers: { 'X-Rig-Operator-Token': TEST_OPERATOR_TOKEN },
      }).catch(() => null);
      await simAnswered(stack, 'GET', '/pods');
      await new Promise((r) => setTimeout(r, 500));
      await stack.gateway?.kill9();
      await stopping;
      await eventually(
        async () => ((await simWrites(stack)).includes(`POST /pods/${podId}/action stop`) ? true : undefined),
        30_000,
        'the stop taking effect',
      );
      await restartGateway(stack, 'chaos-steps-gateway2');
      // The Stop intent the dead gateway left is the idle monitor's to reconcile, once past the client timeout.
      await stack.startIdleMonitor({ CHECK_SECONDS: '1' });
      await reconciledStop(stack, podId);

      expect(await billing(stack)).toEqual([]);
      const report = await settledAudit(stack, since);
      expect(report.billing).toEqual([]);
      expectCleanAudit(report);
    },
  );
});

describe('chaos: kill -9 the idle monitor during its stop', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ name: 'chaos-idlestop', idleMonitors: 1, env: FAST_IDLE_ENV });
  });
  afterAll(() => stack?.stop());

  chaosCase(
    'kill -9 the idle monitor while its stop is in flight, start another: one stop',
    false,
    async () => {
      await resetSim(stack, { timings: IDLE_TEST_TIMINGS });
      await clearSimCalls(stack);
      const since = Date.now();
      const podId = await seedPod(stack, { status: 'RUNNING' });
      await injectFault(stack, { route: 'action', podId, kind: 'delay', delayMs: 5000 });
      await stack.idleMonitors[0].waitForMessage(`stopping ${podId}`, 120_000);
      await stack.idleMonitors[0].kill9();
      await stack.startIdleMonitor();
      await eventually(
        async () => ((await simWrites(stack)).includes(`POST /pods/${podId}/action stop`) ? true : undefined),
        30_000,
        'the stop taking effect',
      );
      // The replacement's ticks after the stop took effect see the pod down and stop nothing more.
      const stopSeenAt = Date.now();
      await eventually(
        async () => {
          const down = ticksSince([stack.idleMonitors[1]], stopSeenAt).filter(
            (t) => t.signal === 'NotRunning',
          );
          return down.length >= 2 ? true : undefined;
        },
        60_000,
        'two ticks of the replacement that saw the pod down',
      );

      expect(await simWrites(stack)).toEqual([`POST /pods/${podId}/action stop`]);
      // The dead monitor's Stop intent, reconciled by the replacement once past the client timeout.
      await reconciledStop(stack, podId);
      const report = await settledAudit(stack, since);
      expect(report.billing).toEqual([]);
      expectCleanAudit(report);
    },
  );
});
