import { FakeRunPod } from './fake-runpod';
import { UnexpectedCallError } from './scripted-answers';
import { created, found } from './runpod-answers';

describe(FakeRunPod.name, () => {
  it('answers every read and write from its world of pods', async () => {
    const fake = new FakeRunPod()
      .setPod('up', { volumeId: 'vol-a', metrics: { active: 1, completed: 3 } })
      .setPod('down', { volumeId: 'vol-a', listedStatus: 'EXITED', observation: 'Exited', stop: 'refused' });

    const list = await fake.listPods();
    expect(list.kind === 'listed' && list.pods.map((p) => [p.id, p.status, p.volumeIds])).toEqual([
      ['up', 'RUNNING', ['vol-a']],
      ['down', 'EXITED', ['vol-a']],
    ]);
    expect(await fake.observePod('up')).toEqual(found('up', 'Running', 1));
    expect(await fake.observePod('down')).toEqual(found('down', 'Exited', 0));
    expect(await fake.observePod('gone')).toEqual({ kind: 'not-found', podId: 'gone' });
    expect(await fake.getActivity('up', 8000)).toEqual({ active: 1, completed: 3 });
    expect((await fake.stopPod('up')).ok).toBe(true);
    expect(await fake.stopPod('down')).toMatchObject({ ok: false, httpStatus: 500 });
    expect(await fake.terminatePod('gone')).toMatchObject({ ok: false, httpStatus: 404 });
    expect(fake.calls).toEqual([
      'list',
      'observe up',
      'observe down',
      'observe gone',
      'metrics up',
      'stop up',
      'stop down',
      'terminate gone',
    ]);
    expect(fake.billableCalls).toEqual(['stop up', 'stop down', 'terminate gone']);
  });

  it('answers a scripted call ahead of the world, once per answer, then the fallback', async () => {
    const fake = new FakeRunPod().setPod('p1', { volumeId: 'vol-ours' });
    fake.onList({ kind: 'unreadable', reason: 'http 502' }).alwaysObserve('p1', found('p1', 'Starting'));
    fake.onObserve('p1', found('p1', 'Exited'));

    expect(await fake.listPods()).toEqual({ kind: 'unreadable', reason: 'http 502' });
    expect(await fake.listPods()).toMatchObject({
      kind: 'listed',
      pods: [expect.objectContaining({ id: 'p1' })],
    });
    expect(await fake.observePod('p1')).toEqual(found('p1', 'Exited'));
    expect(await fake.observePod('p1')).toEqual(found('p1', 'Starting'));
    expect(await fake.observePod('p1')).toEqual(found('p1', 'Starting'));
  });

  it('a create nobody scripted throws: placing a pod is always planned', async () => {
    const fake = new FakeRunPod();
    const request = {
      name: 'n',
      templateId: 't',
      dataCenterId: 'EU-RO-1',
      gpuId: 'NVIDIA L40S',
      volumeId: 'v',
    };
    await expect(fake.createPod(request)).rejects.toBeInstanceOf(UnexpectedCallError);
    fake.onCreate(created('new1'));
    expect(await fake.createPod(request)).toEqual(created('new1'));
    expect(fake.createRequests).toHaveLength(2);
    expect(fake.count('create')).toBe(2);
  });

  it('an unreadable list stays unreadable until it is readable again', async () => {
    const fake = new FakeRunPod().setPod('p1').listFails('timeout');
    expect(await fake.listPods()).toEqual({ kind: 'unreadable', reason: 'timeout' });
    fake.listReadable();
    expect((await fake.listPods()).kind).toBe('listed');
  });

  it('takeCalls hands over one step of calls; reset forgets calls, scripts and world', async () => {
    const fake = new FakeRunPod().setPod('p1');
    fake.onStart({ ok: false, httpStatus: 409, detail: 'no' });
    await fake.listPods();
    expect(fake.takeCalls()).toEqual(['list']);
    expect(fake.calls).toEqual([]);
    fake.reset();
    expect((await fake.startPod('p1')).httpStatus).toBe(404);
    expect(await fake.listPods()).toEqual({ kind: 'listed', pods: [] });
    expect(fake.count('list')).toBe(1);
  });

  it('honours an aborted signal only when asked: the call rejects with its reason and is not logged', async () => {
    const fake = new FakeRunPod().setPod('p1');
    const reason = new Error('cancelled');
    const aborted = AbortSignal.abort(reason);
    expect((await fake.listPods(aborted)).kind).toBe('listed');
    fake.honoursSignals = true;
    await expect(fake.listPods(aborted)).rejects.toBe(reason);
    await expect(fake.stopPod('p1', aborted)).rejects.toBe(reason);
    expect(await fake.observePod('p1', new AbortController().signal)).toEqual(found('p1', 'Running', 1));
    expect(fake.calls).toEqual(['list', 'observe p1']);
  });

  it('scriptedOnly: a call no script answers throws, even with a world; scripted calls still answer', async () => {
    const fake = new FakeRunPod().setPod('p1').scriptedOnly().onObserve('p1', found('p1', 'Exited'));

    expect(await fake.observePod('p1')).toEqual(found('p1', 'Exited'));
    const unplanned = [
      () => fake.listPods(),
      () => fake.observePod('p1'),
      () => fake.startPod('p1'),
      () => fake.stopPod('p1'),
      () => fake.terminatePod('p1'),
      () => fake.getCatalog(),
      () => fake.getActivity('p1', 8000),
    ];
    for (const call of unplanned) await expect(call()).rejects.toBeInstanceOf(UnexpectedCallError);
    expect(fake.calls).toEqual([
      'observe p1',
      'list',
      'observe p1',
      'start p1',
      'stop p1',
      'terminate p1',
      'catalog',
      'metrics p1',
    ]);
    fake.reset();
    expect(await fake.listPods()).toEqual({ kind: 'listed', pods: [] });
  });
});
