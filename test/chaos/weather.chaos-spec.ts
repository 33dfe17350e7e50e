import { eventually } from '../support/app-process';
import { clearSimCalls, injectFault, resetSim, simPods, simWrites } from '../support/sim-admin';
import { Stack } from '../support/stack';
import { TEST_OPERATOR_TOKEN } from '../support/test-env';
import { expectCleanAudit, settledAudit } from './support/audit';
import { chaosCase, startOn } from './support/chaos-case';

/**
 * Control-plane weather during a wake from nothing: rate limits with and
 * without Retry-After, a 5xx after the create took effect, answers past the
 * client timeout, malformed and truncated JSON. Whatever the weather, at
 * most one pod bills at the end and every write is in the action log.
 */
type LastWake = { attemptId: string; outcome: string; reason: string } | null;

describe('chaos: control-plane weather', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'chaos-weather',
      wakers: 1,
      env: { RUNPOD_TIMEOUT_MS: '1500', WAKE_REQUEST_WAIT_SECONDS: '2', WAKE_MAX_RETRY_AFTER_SECONDS: '1' },
    });
  });
  afterAll(() => stack?.stop());

  /** Faults in, one start, then wait for the wake to end; returns its record and the case start. */
  const wakeThrough = async (faults: Array<Record<string, unknown>>) => {
    await resetSim(stack);
    await clearSimCalls(stack);
    const before = (await stack.api<{ lastWake: LastWake }>('GET', '/api/pods/qwen')).body.lastWake;
    for (const fault of faults) await injectFault(stack, fault);
    const since = Date.now();
    const answer = await startOn(stack.gatewayUrl, TEST_OPERATOR_TOKEN);
    expect(answer.status).toBeLessThan(500);
    const wake = await eventually(
      async () => {
        const seen = (await stack.api<{ lastWake: LastWake }>('GET', '/api/pods/qwen')).body.lastWake;
        return seen !== null && seen.attemptId !== before?.attemptId ? seen : undefined;
      },
      120_000,
      'the wake recorded',
    );
    return { wake, since };
  };

  const creates = async () => (await simWrites(stack)).filter((w) => w === 'POST /pods').length;
  const billingPods = async () =>
    (await simPods(stack)).filter((p) => p.status !== 'EXITED' && p.status !== 'TERMINATED');

  chaosCase('two 429s with Retry-After on create: retried within the walk, one pod', true, async () => {
    const { wake, since } = await wakeThrough([
      { route: 'create', kind: 'status', status: 429, retryAfter: 1, times: 2 },
    ]);
    expect(wake.outcome).toBe('Succeeded');
    expect(await creates()).toBe(3);
    expect(await billingPods()).toHaveLength(1);
    expectCleanAudit(await settledAudit(stack, since));
  });

  chaosCase('a 429 storm with Retry-After on create: the walk gives up, no pod bills', true, async () => {
    const { wake, since } = await wakeThrough([
      { route: 'create', kind: 'status', status: 429, retryAfter: 1, times: 50 },
    ]);
    expect(wake.outcome).not.toBe('Succeeded');
    expect(await creates()).toBeLessThanOrEqual(3);
    expect(await billingPods()).toEqual([]);
    expectCleanAudit(await settledAudit(stack, since));
    await stack.simRequest('DELETE', '/_sim/faults');
  });

  chaosCase(
    'a 429 storm without Retry-After on create: no more than one pod, every write logged',
    true,
    async () => {
      const { since } = await wakeThrough([{ route: 'create', kind: 'status', status: 429, times: 3 }]);
      expect((await billingPods()).length).toBeLessThanOrEqual(1);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  chaosCase('a 500 after the create took effect: the placed pod is found, never a second', true, async () => {
    const { wake, since } = await wakeThrough([{ route: 'create', kind: 'after-effect', status: 500 }]);
    expect(wake.outcome).toBe('Succeeded');
    expect(await creates()).toBe(1);
    const report = await settledAudit(stack, since);
    // The one POST is logged as refused (500), then a second Create row marks the adoption.
    expect(report.adoptions).toEqual(report.billing);
    expectCleanAudit(report);
  });

  chaosCase(
    'a create answered past the client timeout (it still placed a pod): never a second',
    true,
    async () => {
      const { since } = await wakeThrough([{ route: 'create', kind: 'delay', delayMs: 4000 }]);
      await eventually(
        async () => ((await simPods(stack)).length > 0 ? true : undefined),
        30_000,
        'the late pod',
      );
      expect(await creates()).toBe(1);
      expect((await billingPods()).length).toBeLessThanOrEqual(1);
      expectCleanAudit(await settledAudit(stack, since));
    },
  );

  /** The list unreadable for the whole wake: the wake refuses on it (its own record says so), creating nothing. */
  const unreadableListCase = async (fault: Record<string, unknown>) => {
    const { wake, since } = await wakeThrough([{ route: 'list', times: 100_000, ...fault }]);
    // Refused: the outcome that claims nothing was billed.
    expect(wake).toMatchObject({
      outcome: 'Refused',
      reason: expect.stringContaining('volume lookup unreadable'),
    });
    expect(await creates()).toBe(0);
    expect(await billingPods()).toEqual([]);
    await stack.simRequest('DELETE', '/_sim/faults');
    expectCleanAudit(await settledAudit(stack, since));
  };

  chaosCase('truncated JSON on every list: no create while unreadable', true, () =>
    unreadableListCase({ kind: 'malformed' }),
  );

  chaosCase('a 503 storm on observe while the new pod boots: one pod', false, async () => {
    const { since } = await wakeThrough([{ route: 'observe', kind: 'status', status: 503, times: 10 }]);
    expect(await creates()).toBe(1);
    expectCleanAudit(await settledAudit(stack, since));
  });

  chaosCase('connection-level failure (bare 404 from an intermediary) on every list: no create', false, () =>
    unreadableListCase({ kind: 'bare-404' }),
  );
});
