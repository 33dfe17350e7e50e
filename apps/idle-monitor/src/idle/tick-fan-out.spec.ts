import type { ListedPod, PodConfig, PodList } from '@podwarden/policies';
import { fanOutTick } from './tick-fan-out';

function pod(name: string): PodConfig {
  return { name, volumeId: `vol-${name}` } as PodConfig;
}
function listed(id: string, volumeId: string): ListedPod {
  return {
    id,
    name: null,
    status: 'RUNNING',
    volumeIds: [volumeId],
    costPerHr: 0.5,
    gpuId: 'g',
    createdAt: null,
  };
}

describe(fanOutTick.name, () => {
  const pods = ['busy', 'q1', 'q2', 'q3'].map(pod);
  const list: PodList = { kind: 'listed', pods: [listed('p1', 'vol-busy')] };

  it('answers every pod, each with its own result', async () => {
    const results = await fanOutTick(pods, list, { idleConcurrency: 1, idleQuietConcurrency: 1 }, (p) =>
      Promise.resolve(p.name.toUpperCase()),
    );
    expect(pods.map((p) => results.get(p))).toEqual(['BUSY', 'Q1', 'Q2', 'Q3']);
  });

  it('quiet pods run beside a pod on the control plane, up to their own bound at once', async () => {
    let releaseBusy = (): void => undefined;
    const busyHeld = new Promise<void>((resolve) => (releaseBusy = resolve));
    let inFlight = 0;
    let mostQuietAtOnce = 0;
    const quietDone: string[] = [];
    const run = fanOutTick(pods, list, { idleConcurrency: 1, idleQuietConcurrency: 2 }, async (p) => {
      if (p.name === 'busy') {
        await busyHeld;
        return p.name;
      }
      inFlight++;
      mostQuietAtOnce = Math.max(mostQuietAtOnce, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      quietDone.push(p.name);
      if (quietDone.length === 3) releaseBusy();
      return p.name;
    });
    await run;
    expect(quietDone.sort()).toEqual(['q1', 'q2', 'q3']);
    expect(mostQuietAtOnce).toBe(2);
  });

  it('an unreadable list puts every pod in the control-plane lane', async () => {
    let inFlight = 0;
    let mostAtOnce = 0;
    await fanOutTick(
      pods,
      { kind: 'unreadable', reason: 'HTTP 500' },
      { idleConcurrency: 1, idleQuietConcurrency: 8 },
      async () => {
        inFlight++;
        mostAtOnce = Math.max(mostAtOnce, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
      },
    );
    expect(mostAtOnce).toBe(1);
  });
});
