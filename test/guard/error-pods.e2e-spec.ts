import { eventually, type AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { Stack } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  addFault,
  emptyVolume,
  seedPod,
  simCalls,
  simPod,
  tickLines,
  waitForTick,
} from '../idle/support/idle-harness';

/**
 * A pod in ERROR may hold its GPU and bill (the simulator bills it). A pod on
 * our volume seen in ERROR for the boot grace (0.05 min here: 3 s) is stopped
 * with trigger `error`, under a keep-alive too; a stop RunPod refuses is
 * followed by a terminate. The monitor's /metrics counts each call.
 */
jest.setTimeout(180_000);

const HOUR_AGO = (): string => new Date(Date.now() - 3_600_000).toISOString();

describe('pods in ERROR', () => {
  let stack: Stack;
  let monitor: AppProcess;
  let healthPort: number;
  const monitors = (): AppProcess[] => [monitor];

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-error-pods',
      idleMonitors: 0,
      env: { ...FAST_IDLE_ENV, RUNPOD_BOOT_GRACE_MINUTES: '0.05' },
    });
    healthPort = await freePort();
    monitor = await stack.startIdleMonitor({ HEALTH_PORT: String(healthPort) });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const metricsText = async (): Promise<string> =>
    (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();

  const writesTo = async (podId: string): Promise<string[]> =>
    (await simCalls(stack))
      .filter((c) => c.method !== 'GET' && c.path.startsWith(`/pods/${podId}`))
      .map((c) => `${c.method} ${c.path} ${c.status}`);

  it('a serving pod that goes into ERROR under a keep-alive is stopped after the grace (trigger error), and the idle state is held meanwhile', async () => {
    const since = await emptyVolume(stack, monitors);
    const podId = await seedPod(stack, { id: 'error-pod', status: 'RUNNING', vllmReady: true });
    await waitForTick(
      monitors,
      (t) => (t.scheduledAt ?? t.at) > since && t.phase === 'Ready',
      EVENT_DEADLINE_MS,
      'the pod ready',
    );
    const kept = await stack.api('POST', '/api/pods/qwen/keepalive', {
      token: 'operator',
      body: { minutes: 60 },
    });
    expect(kept.status).toBe(200);
    const forcedAt = Date.now();
    const forced = await stack.simRequest('POST', `/_sim/pods/${podId}/status`, { status: 'ERROR' });
    expect(forced.status).toBe(200);
    expect((await simPod(stack, podId)).status).toBe('ERROR');

    const stopped = await eventually(
      async () => (await actions(stack)).find((a) => a.action === 'Stop' && a.podId === podId),
      EVENT_DEADLINE_MS,
      'the ERROR pod stopped',
    );

    expect(stopped).toMatchObject({ trigger: 'error', ok: true, httpStatus: 200 });
    expect((await actions(stack)).filter((a) => a.podId === podId).map((a) => a.action)).toEqual(['Stop']);
    expect(await writesTo(podId)).toEqual([`POST /pods/${podId}/action 200`]);
    expect((await simPod(stack, podId)).status).toBe('EXITED');
    // Not before the grace: at least 3 s of ERROR passed between the forced status and the stop.
    expect(Date.parse(stopped.at) - forcedAt).toBeGreaterThanOrEqual(3_000);
    // While in ERROR the volume read Unknown and stayed Ready: the ERROR read no longer resets the state.
    const inError = tickLines(monitors()).filter(
      (t) => (t.scheduledAt ?? t.at) > forcedAt && t.at <= Date.parse(stopped.at),
    );
    expect(inError.length).toBeGreaterThan(0);
    expect(inError.every((t) => t.signal === 'Unknown' && t.phase === 'Ready')).toBe(true);
    expect(monitor.messages()).toContain(`stopping ${podId}: in ERROR longer than the grace (error)`);
    const text = await eventually(
      async () => {
        const scraped = await metricsText();
        return scraped.includes('podwarden_stop_actions_total{trigger="error"') ? scraped : undefined;
      },
      EVENT_DEADLINE_MS,
      'the error stop on /metrics',
    );
    expect(text).toContain(
      'podwarden_stop_actions_total{trigger="error",action="Stop",outcome="accepted"} 1',
    );
  });

  it('a stop RunPod refuses (409) is followed by a terminate, both recorded with trigger error; an ERROR pod on no configured volume is never touched', async () => {
    await emptyVolume(stack, monitors);
    const foreign = await seedPod(stack, {
      id: 'foreign-error-pod',
      name: 'someone-elses-pod',
      volumeId: null,
      status: 'ERROR',
      createdAt: HOUR_AGO(),
    });
    await addFault(stack, {
      route: 'action',
      podId: 'refusing-pod',
      kind: 'status',
      status: 409,
      times: 1,
      body: { title: 'Conflict', status: 409, detail: 'pod is in ERROR' },
    });
    const podId = await seedPod(stack, { id: 'refusing-pod', status: 'ERROR' });

    const terminated = await eventually(
      async () => (await actions(stack)).find((a) => a.action === 'Terminate' && a.podId === podId),
      EVENT_DEADLINE_MS,
      'the ERROR pod terminated',
    );

    expect(terminated).toMatchObject({ trigger: 'error', ok: true, httpStatus: 204 });
    const ours = (await actions(stack)).filter((a) => a.podId === podId).reverse();
    expect(ours.map((a) => `${a.action} ${a.trigger} ${a.httpStatus} ok=${String(a.ok)}`)).toEqual([
      'Stop error 409 ok=false',
      'Terminate error 204 ok=true',
    ]);
    expect(await writesTo(podId)).toEqual([`POST /pods/${podId}/action 409`, `DELETE /pods/${podId} 204`]);
    expect(await writesTo(foreign)).toEqual([]);
    expect((await simPod(stack, foreign)).status).toBe('ERROR');
    const text = await metricsText();
    expect(text).toContain('podwarden_stop_actions_total{trigger="error",action="Stop",outcome="refused"} 1');
    expect(text).toContain(
      'podwarden_stop_actions_total{trigger="error",action="Terminate",outcome="accepted"} 1',
    );
  });
});
