import { FakeRunPod, created, emptyVolume, found } from '@podwarden/testing';
import { AbortableControlPlane } from './abortable-control-plane';
import type { WakeControlPlane } from './wake-dependencies';

const REQUEST = { name: 'n', templateId: 't', dataCenterId: 'EU-RO-1', gpuId: 'g', volumeId: 'v' };

type Call = [string, (plane: AbortableControlPlane) => Promise<unknown>];
const CALLS: Call[] = [
  ['listPods', (plane) => plane.listPods()],
  ['observePod', (plane) => plane.observePod('p1')],
  ['startPod', (plane) => plane.startPod('p1')],
  ['createPod', (plane) => plane.createPod(REQUEST)],
  ['terminatePod', (plane) => plane.terminatePod('p1')],
  ['getCatalog', (plane) => plane.getCatalog()],
];

/** The fake, plus the signal each call was given (the real client aborts its request with it). */
function signalRecordingFake(): { client: WakeControlPlane; fake: FakeRunPod; signals: unknown[] } {
  const fake = new FakeRunPod()
    .setPod('p1')
    .alwaysList(emptyVolume())
    .alwaysObserve('p1', found('p1', 'Running'))
    .onCreate(created('new1'));
  const signals: unknown[] = [];
  const client = new Proxy(fake, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'constructor') return value;
      return (...args: unknown[]) => {
        signals.push(args.at(-1));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { client, fake, signals };
}

describe(AbortableControlPlane.name, () => {
  it.each(CALLS)('%s passes the job signal to the client', async (_name, call) => {
    const { client, signals } = signalRecordingFake();
    const job = new AbortController();

    await call(new AbortableControlPlane(client, job.signal));

    expect(signals).toEqual([job.signal]);
  });

  it.each(CALLS)(
    '%s is not issued once the job is cancelled, and fails naming the cancellation',
    async (_name, call) => {
      const { client, fake } = signalRecordingFake();
      const job = new AbortController();
      job.abort('operator cancelled');

      await expect(call(new AbortableControlPlane(client, job.signal))).rejects.toThrow(
        'wake cancelled: operator cancelled',
      );
      expect(fake.calls).toEqual([]);
    },
  );

  it('without a signal (a direct call outside a job) every call goes through', async () => {
    const { client, fake } = signalRecordingFake();
    const plane = new AbortableControlPlane(client);

    for (const [, call] of CALLS) await call(plane);

    expect(fake.calls).toEqual(['list', 'observe p1', 'start p1', 'create g', 'terminate p1', 'catalog']);
  });
});
