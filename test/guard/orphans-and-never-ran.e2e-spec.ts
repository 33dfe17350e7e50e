import { eventually } from '../support/app-process';
import { Stack, VOLUME_ID } from '../support/stack';
import {
  EVENT_DEADLINE_MS,
  FAST_IDLE_ENV,
  actions,
  emptyVolume,
  messagesWith,
  seedPod,
  simCalls,
  simPod,
} from '../idle/support/idle-harness';

/**
 * What the idle monitor's field of view used to miss: a pod of ours on no
 * configured volume (an orphan), and a pod on our volume that never obtains
 * a runtime while a serving sibling keeps the volume Ready and a keep-alive
 * holds off the idle stop. Orphan grace and boot grace are both 0.05 min (3 s).
 */
jest.setTimeout(180_000);

const HOUR_AGO = (): string => new Date(Date.now() - 3_600_000).toISOString();

describe('orphans and never-ran pods', () => {
  let stack: Stack;
  const monitors = (): Stack['idleMonitors'] => stack.idleMonitors;

  beforeAll(async () => {
    stack = await Stack.start({
      name: 'guard-orphans',
      idleMonitors: 1,
      env: { ...FAST_IDLE_ENV, ORPHAN_GRACE_MINUTES: '0.05', RUNPOD_BOOT_GRACE_MINUTES: '0.05' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('an orphan created out of band with our prefix is terminated (trigger orphan); a foreign pod beside it is never touched', async () => {
    await emptyVolume(stack, monitors);
    const orphan = await seedPod(stack, {
      id: 'orphan-pod',
      name: 'podwarden-qwen-20261201T000000Z',
      volumeId: null,
      status: 'RUNNING',
      createdAt: HOUR_AGO(),
    });
    const foreign = await seedPod(stack, {
      id: 'foreign-pod',
      name: 'someone-elses-pod',
      volumeId: null,
      status: 'RUNNING',
      createdAt: HOUR_AGO(),
    });
    const elsewhere = await seedPod(stack, {
      id: 'elsewhere-pod',
      name: 'notpodwarden-qwen-1',
      volumeId: null,
      status: 'RUNNING',
      createdAt: HOUR_AGO(),
    });

    const terminated = await eventually(
      async () => (await actions(stack)).find((a) => a.action === 'Terminate' && a.podId === orphan),
      EVENT_DEADLINE_MS,
      'the orphan terminated',
    );
    expect(terminated).toMatchObject({ trigger: 'orphan', ok: true });
    expect(messagesWith(monitors(), `terminated orphan ${orphan}`)).toHaveLength(1);
    // A few more ticks: the foreign pods are still untouched.
    const ticksBefore = messagesWith(monitors(), 'idle tick').length;
    await eventually(
      async () => (messagesWith(monitors(), 'idle tick').length >= ticksBefore + 3 ? true : undefined),
      EVENT_DEADLINE_MS,
      'three more ticks',
    );
    const writes = (await simCalls(stack))
      .filter((c) => c.method !== 'GET')
      .map((c) => `${c.method} ${c.path}`);
    expect(writes).toEqual([`DELETE /pods/${orphan}`]);
    expect((await simPod(stack, foreign)).status).toBe('RUNNING');
    expect((await simPod(stack, elsewhere)).status).toBe('RUNNING');
  });

  it('a pod that never obtains a runtime is stopped after the boot grace, though a busy sibling and a keep-alive protect the volume', async () => {
    await emptyVolume(stack, monitors);
    const serving = await seedPod(stack, {
      id: 'serving-pod',
      volumeId: VOLUME_ID,
      status: 'RUNNING',
      behaviour: 'phantom-busy',
    });
    const stuck = await seedPod(stack, { id: 'stuck-pod', volumeId: VOLUME_ID, status: 'RUNNING' });
    const forced = await stack.simRequest('POST', `/_sim/pods/${stuck}/status`, {
      status: 'RUNNING',
      runtime: 'null',
    });
    expect(forced.status).toBe(200);
    const kept = await stack.api('POST', '/api/pods/qwen/keepalive', {
      token: 'operator',
      body: { minutes: 60 },
    });
    expect(kept.status).toBe(200);

    const stopped = await eventually(
      async () => (await actions(stack)).find((a) => a.action === 'Stop' && a.podId === stuck),
      EVENT_DEADLINE_MS,
      'the never-ran pod stopped',
    );
    expect(stopped).toMatchObject({ trigger: 'boot-grace', ok: true });
    expect((await actions(stack)).filter((a) => a.action === 'Stop' && a.podId === serving)).toEqual([]);
    expect((await simPod(stack, serving)).status).toBe('RUNNING');
  });
});
