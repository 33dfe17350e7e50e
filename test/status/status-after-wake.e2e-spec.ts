import { FAST_TIMINGS, resetSim, seedPod } from '../support/sim-admin';
import { Stack } from '../support/stack';

interface Seen {
  readonly status: string;
  readonly isRunning: boolean;
  readonly lastWake: { readonly attemptId: string; readonly outcome: string } | null;
}

// Past the default STATUS_MAX_AGE_MS (2000): long enough for a snapshot read before the pod ran to show.
const WATCH_AFTER_SUCCESS_MS = 3_000;
const DEADLINE_MS = 60_000;
const POLLERS = 3;

/**
 * GET right after a wake: the start answers 202 after a one-second wait while
 * the pod still boots, callers poll GET, and the first answer that shows the
 * wake Succeeded must also show the pod running, never the snapshot read
 * while it was still coming up.
 */
describe('GET after a wake is consistent', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'status-after-wake',
      wakers: 1,
      env: { WAKE_REQUEST_WAIT_SECONDS: '1' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it.each([
    ['created', 'Created', { provisioningMs: 3_000, startingMs: 500, gpuAttachMs: 500 }, false],
    ['started', 'Started', { provisioningMs: 300, startingMs: 3_000, gpuAttachMs: 500 }, true],
  ])(
    'a pod %s that takes seconds to run: no answer pairs lastWake Succeeded with isRunning false',
    async (_how, wakeOutcome, slow, seeded) => {
      await resetSim(stack, { timings: { ...FAST_TIMINGS, ...slow } });
      if (seeded) await seedPod(stack, { status: 'EXITED' });

      const answer = await stack.api<Record<string, unknown>>('POST', '/api/pods/qwen/start', {
        token: 'operator',
      });
      expect(answer.status).toBe(202);
      const attemptId = String(answer.body.attemptId);
      const seen = await pollUntilSettled(stack.gatewayUrl, attemptId);

      const ours = seen.filter((s) => s.lastWake?.attemptId === attemptId);
      const succeeded = ours.filter((s) => s.lastWake?.outcome === 'Succeeded');
      // The window was there: answers showed the pod not running yet, then the wake Succeeded.
      expect(seen.some((s) => !s.isRunning && s.lastWake?.attemptId !== attemptId)).toBe(true);
      expect(succeeded.length).toBeGreaterThan(0);
      // Each stale pair as one short line, so a failure reads at a glance.
      expect(succeeded.filter((s) => !s.isRunning).map((s) => `${s.status} isRunning=false`)).toEqual([]);
      const history = await stack.api<{ wakes: Array<Record<string, unknown>> }>(
        'GET',
        '/api/pods/qwen/history',
      );
      expect(history.body.wakes.find((w) => w.attemptId === attemptId)).toMatchObject({
        outcome: 'Succeeded',
        wakeOutcome,
      });
    },
  );
});

/** Several callers GET as fast as they can until the wake has been Succeeded for a while. */
async function pollUntilSettled(gatewayUrl: string, attemptId: string): Promise<Seen[]> {
  const seen: Seen[] = [];
  const deadline = Date.now() + DEADLINE_MS;
  let succeededAt: number | null = null;
  const done = (): boolean =>
    Date.now() > deadline || (succeededAt !== null && Date.now() - succeededAt > WATCH_AFTER_SUCCESS_MS);
  await Promise.all(
    Array.from({ length: POLLERS }, async () => {
      while (!done()) {
        const response = await fetch(`${gatewayUrl}/api/pods/qwen`);
        expect(response.status).toBe(200);
        const body = (await response.json()) as Seen;
        seen.push({ status: body.status, isRunning: body.isRunning, lastWake: body.lastWake });
        if (
          succeededAt === null &&
          body.lastWake?.attemptId === attemptId &&
          body.lastWake.outcome === 'Succeeded'
        )
          succeededAt = Date.now();
      }
    }),
  );
  if (succeededAt === null) throw new Error(`wake ${attemptId} not Succeeded within ${DEADLINE_MS} ms`);
  return seen;
}
