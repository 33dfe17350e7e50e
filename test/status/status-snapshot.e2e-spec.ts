import { AppProcess, eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { clearSimCalls, resetSim, seedPod, simCalls } from '../support/sim-admin';
import { Stack } from '../support/stack';

const MAX_AGE_MS = 2000;

interface StatusView {
  readonly status: string;
  readonly podId: string | null;
  readonly observedAt: string | null;
  readonly readySince: string | null;
  readonly expectedReadyAt: string | null;
  readonly lastWake: { readonly requestedAt: string; readonly wakeOutcome: string } | null;
}

async function statusAt(url: string): Promise<StatusView> {
  const response = await fetch(`${url}/api/pods/qwen`);
  expect(response.status).toBe(200);
  return (await response.json()) as StatusView;
}

/** Two gateways on one Redis: every status GET of either answers from the one shared snapshot. */
describe('status at cache speed over two gateway replicas', () => {
  let stack: Stack;
  let second: AppProcess;
  let secondUrl = '';

  beforeAll(async () => {
    stack = await Stack.start({ name: 'status-replicas', wakers: 1 });
    const port = await freePort();
    secondUrl = `http://127.0.0.1:${port}`;
    second = AppProcess.start('gateway', { ...stack.env, PORT: String(port) }, 'status-replicas-gateway2');
    await eventually(
      async () => ((await fetch(`${secondUrl}/health/ready`)).ok ? true : undefined),
      20_000,
      'second gateway up',
    );
  });
  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });
  beforeEach(async () => {
    await resetSim(stack);
  });

  it('many GETs on both replicas cost at most one RunPod list per freshness period', async () => {
    await seedPod(stack, { status: 'RUNNING' });
    await clearSimCalls(stack);
    const started = Date.now();
    let gets = 0;
    // Eight pollers per replica for three freshness periods and more.
    await Promise.all(
      [stack.gatewayUrl, secondUrl].flatMap((url) =>
        Array.from({ length: 8 }, async () => {
          while (Date.now() - started < 3 * MAX_AGE_MS + 500) {
            const view = await statusAt(url);
            expect(view).toMatchObject({ status: 'RUNNING', observedAt: expect.any(String) });
            gets += 1;
          }
        }),
      ),
    );
    const elapsed = Date.now() - started;
    const lists = (await simCalls(stack)).filter((c) => c.method === 'GET' && c.path === '/pods');
    expect(gets).toBeGreaterThan(lists.length * 10);
    expect(lists.length).toBeGreaterThanOrEqual(1);
    expect(lists.length).toBeLessThanOrEqual(Math.floor(elapsed / MAX_AGE_MS) + 1);
  });

  it('observedAt is when RunPod was read: never in the future, at most one freshness period old while polled', async () => {
    await seedPod(stack, { status: 'RUNNING' });
    await statusAt(stack.gatewayUrl);
    for (const url of [stack.gatewayUrl, secondUrl]) {
      const asked = Date.now();
      const observedAt = Date.parse((await statusAt(url)).observedAt ?? '');
      expect(observedAt).toBeLessThanOrEqual(Date.now());
      // A snapshot past the bound is served only while one refresh runs, so allow one more period.
      expect(asked - observedAt).toBeLessThanOrEqual(2 * MAX_AGE_MS + 1000);
    }
  });

  it('after a stop on one replica the next GET on the other shows the pod stopped, and after a start, starting', async () => {
    const podId = await seedPod(stack, { status: 'RUNNING' });
    expect(await statusAt(secondUrl)).toMatchObject({ podId, status: 'RUNNING' });

    const stopped = await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' });
    expect(stopped.status).toBe(200);
    expect(await statusAt(secondUrl)).toMatchObject({ podId, status: 'EXITED' });

    const woken = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    expect(woken.body).toMatchObject({ outcome: 'Started', podId });
    expect((await statusAt(secondUrl)).status).not.toBe('EXITED');
  });
});

/** expectedReadyAt from the time-to-ready the idle monitor recorded for past wakes. */
describe('expectedReadyAt', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'status-eta',
      wakers: 1,
      idleMonitors: 1,
      // Ticks every second; no idle stop, boot grace or cap within the test.
      env: { CHECK_SECONDS: '1', IDLE_MINUTES: '30', RUNPOD_BOOT_GRACE_MINUTES: '10' },
    });
    // The model takes 3 s to load after the pod runs: long enough to see it boot.
    await resetSim(stack, {
      timings: {
        provisioningMs: 300,
        startingMs: 300,
        gpuAttachMs: 0,
        modelLoadMs: 3_000,
        chatMs: 200,
        terminateMs: 0,
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is null while the first wake boots (no history), then the start plus the recorded time-to-ready on the next', async () => {
    const created = await stack.api('POST', '/api/pods/qwen/start', { token: 'wake' });
    expect(created.body).toMatchObject({ outcome: 'Created' });
    const booting = await statusAt(stack.gatewayUrl);
    expect(booting).toMatchObject({ readySince: null, expectedReadyAt: null });

    const ready = await eventually(
      async () => {
        const view = await statusAt(stack.gatewayUrl);
        return view.readySince === null ? undefined : view;
      },
      60_000,
      'the model ready (readySince)',
    );
    expect(ready.expectedReadyAt).toBeNull();
    const firstWake = ready.lastWake!;
    const readyAfterMs = Date.parse(ready.readySince!) - Date.parse(firstWake.requestedAt);

    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' })).status).toBe(200);
    const restarted = await stack.api('POST', '/api/pods/qwen/start', { token: 'wake' });
    expect(restarted.body).toMatchObject({ outcome: 'Started' });
    const rebooting = await statusAt(stack.gatewayUrl);
    expect(rebooting.readySince).toBeNull();
    expect(rebooting.lastWake?.wakeOutcome).toBe('Started');
    expect(rebooting.expectedReadyAt).toBe(
      new Date(Date.parse(rebooting.lastWake!.requestedAt) + readyAfterMs).toISOString(),
    );
  });
});
