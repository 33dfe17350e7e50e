import { AppProcess, eventually } from '../support/app-process';
import { freePort } from '../support/free-port';
import { IDLE_TEST_TIMINGS } from '../idle/support/idle-harness';
import { resetSim } from '../support/sim-admin';
import { Stack } from '../support/stack';
import type { SseClient } from '../support/sse-client';

const EVENTS = '/api/pods/qwen/events';

/**
 * GET /api/pods/{name}/events through the built apps: the waker, the idle
 * monitor, the stop service and the gateway publish; two gateway replicas
 * serve the same events; a client that reconnects with Last-Event-ID gets
 * everything it missed, once.
 */
describe('the pod event stream across gateway replicas', () => {
  let stack: Stack;
  let second: AppProcess;
  let secondUrl: string;
  const clients: SseClient[] = [];

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'events',
      wakers: 1,
      idleMonitors: 1,
      env: { CHECK_SECONDS: '1', IDLE_MINUTES: '30', RUNPOD_BOOT_GRACE_MINUTES: '30' },
    });
    const port = await freePort();
    secondUrl = `http://127.0.0.1:${port}`;
    second = AppProcess.start('gateway', { ...stack.env, PORT: String(port) }, 'events-gateway2');
    await eventually(
      async () => ((await fetch(`${secondUrl}/health/ready`)).ok ? true : undefined),
      20_000,
      'second gateway up',
    );
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await second?.stop();
    await stack?.stop();
  });

  const open = async (lastEventId: string | null, url = stack.gatewayUrl): Promise<SseClient> => {
    const client = await stack.eventStream(EVENTS, lastEventId, url);
    clients.push(client);
    return client;
  };
  const typed = (client: SseClient, type: string) => client.events.filter((e) => e.event === type);

  it('an unknown pod is 404 problem+json, like every pod route', async () => {
    const answer = await stack.api('GET', '/api/pods/nobody/events');
    expect(answer).toMatchObject({ status: 404, contentType: expect.stringContaining('problem+json') });
  });

  it('both replicas stream the same wake, phases, keep-alive and stop; a reconnect with Last-Event-ID misses nothing', async () => {
    await resetSim(stack, { timings: IDLE_TEST_TIMINGS });
    const a = await open(null);
    const b = await open(null, secondUrl);
    expect(a.opening).toEqual({ status: 200, contentType: 'text/event-stream; charset=utf-8' });
    expect(b.opening.status).toBe(200);

    const started = await stack.api('POST', '/api/pods/qwen/start', { token: 'operator' });
    expect(started.status).toBe(200);
    const attemptId = String(started.body.attemptId);
    for (const client of [a, b]) {
      await client.waitFor('wake-completed', (e) => e.event === 'wake-completed');
      await client.waitFor('phase ready', (e) => e.event === 'phase' && client.data(e).phase === 'ready');
    }
    expect(typed(a, 'wake-requested').map((e) => a.data(e))).toEqual([
      expect.objectContaining({ pod: 'qwen', attemptId, requestedBy: expect.any(String) }),
    ]);
    expect(typed(a, 'wake-progress').length).toBeGreaterThan(0);
    expect(a.data(typed(a, 'wake-completed')[0])).toMatchObject({
      attemptId,
      outcome: 'Succeeded',
      wakeOutcome: 'Created',
      podId: started.body.podId,
    });
    expect(typed(a, 'phase').map((e) => [a.data(e).from, a.data(e).phase])).toEqual([
      ['down', 'booting'],
      ['booting', 'ready'],
    ]);

    // B drops; what happens meanwhile is replayed when it reconnects with its last id.
    const resumeFrom = b.lastId;
    expect(resumeFrom).toBe(a.lastId);
    await b.close();
    expect(
      (await stack.api('POST', '/api/pods/qwen/keepalive', { token: 'operator', body: { minutes: 5 } }))
        .status,
    ).toBe(200);
    expect((await stack.api('POST', '/api/pods/qwen/stop', { token: 'operator' })).status).toBe(200);
    await a.waitFor('phase down', (e) => e.event === 'phase' && a.data(e).phase === 'down');
    const resumed = await open(resumeFrom, secondUrl);
    await resumed.waitFor(
      'the replayed down edge',
      (e) => e.event === 'phase' && resumed.data(e).phase === 'down',
    );

    expect(resumed.events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['keepalive', 'stop', 'phase']),
    );
    expect(resumed.data(typed(resumed, 'stop')[0])).toMatchObject({
      trigger: 'manual',
      ok: true,
      podId: started.body.podId,
    });
    expect(resumed.data(typed(resumed, 'phase')[0])).toMatchObject({
      phase: 'down',
      from: 'ready',
      stopReason: 'manual',
    });
    // Every id once, in order, and together exactly what A saw.
    const seenByB = [...b.ids(), ...resumed.ids()];
    expect(new Set(seenByB).size).toBe(seenByB.length);
    await eventually(
      async () => (a.ids().length === seenByB.length ? true : undefined),
      10_000,
      'A and B level',
    );
    expect(seenByB).toEqual(a.ids());
    expect(a.events.every((e) => /^\d+-\d+$/.test(e.id ?? ''))).toBe(true);
  });

  it('sends a heartbeat comment while nothing happens', async () => {
    const quiet = await open(null, secondUrl);
    await eventually(
      async () => (quiet.raw.includes(': heartbeat ') ? true : undefined),
      40_000,
      'a heartbeat',
    );
  });
});
