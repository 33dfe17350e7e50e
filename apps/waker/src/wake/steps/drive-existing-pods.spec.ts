import type { PodObservation, PodStatus } from '@podwarden/policies';
import {
  actionAccepted,
  actionRefused,
  created,
  emptyVolume,
  found,
  notFound,
  unreadableList,
  unreadablePod,
  volumeWith,
} from '@podwarden/testing';
import { L40S, PRICES, RANKED_CATALOG } from '../testing/gpu-catalogs';
import { TEST_MAX_POLLS } from '../testing/test-config';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import {
  POLL_GAPS,
  rounds,
  wakeAction,
  replacingGpulessPod,
  UNTIL_REPLACEMENT_CREATE,
} from '../testing/wake-scenarios';
import { driveExistingPods } from './drive-existing-pods';

/** Step 2 through the whole run: the pods already on the volume, observed round by round. */
describe(driveExistingPods.name, () => {
  it('a Running pod with a GPU is AlreadyRunning, with no write', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Running', 1));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result).toMatchObject({
      outcome: 'AlreadyRunning',
      failureKind: null,
      podId: 'p1',
      gpuId: null,
      pricePerHour: null,
      message: 'pod p1 is already running',
    });
    expect(runpod.calls).toEqual(['list', 'observe p1']);
    expect(sut.actions.entries).toEqual([]);
  });

  it.each<PodStatus>(['Exited', 'Error'])(
    'a %s pod is started once, polled through Starting to Running, and answers Started with one Start recorded',
    async (status) => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', status), found('p1', 'Starting'), found('p1', 'Running'))
        .onStart(actionAccepted());
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'start p1', 'observe p1', 'observe p1']);
      expect(sut.logs.find('start issued')).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'start issued for pod p1',
          billable: 'Start',
          httpStatus: 200,
        }),
      ]);
      expect(result).toMatchObject({
        outcome: 'Started',
        podId: 'p1',
        failureKind: null,
        message: 'started pod p1',
      });
      expect(sut.actions.entries).toEqual([
        wakeAction({
          action: 'Start',
          podId: 'p1',
          gpuId: null,
          pricePerHour: null,
          httpStatus: 200,
          ok: true,
          detail: null,
        }),
      ]);
    },
  );

  it('an Exited pod after a start that did not take is replaced, and terminated only after the replacement is Running', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
      .onStart(actionAccepted())
      .onCatalog(RANKED_CATALOG)
      .onCreate(created('new1'))
      .onObserve('new1', found('new1', 'Starting'), found('new1', 'Running'), found('new1', 'Running'))
      .onTerminate(actionAccepted(204));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      'list',
      'observe p1',
      'start p1',
      'observe p1',
      'catalog',
      `create ${L40S}`,
      'observe new1',
      'observe new1',
      'observe new1',
      'terminate p1',
    ]);
    // The last 'observe new1' is the guard's own read of the replacement, right before the terminate.
    expect(runpod.calls.indexOf('terminate p1')).toBe(runpod.calls.lastIndexOf('observe new1') + 1);
    expect(result).toMatchObject({
      outcome: 'Created',
      podId: 'new1',
      gpuId: L40S,
      pricePerHour: PRICES[L40S],
    });
    expect(sut.actions.summary).toEqual(['Start p1 ok', 'Create new1 ok', 'Terminate p1 ok']);
  });

  it('a start RunPod refused is recorded ok:false and still counts as the one start: the next Exited read replaces the pod', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Exited'), found('p1', 'Exited'))
      .onStart(actionRefused(500, 'no capacity on the host'))
      .onCatalog(RANKED_CATALOG)
      .onCreate(created('new1'))
      .onObserve('new1', found('new1', 'Running'), found('new1', 'Running'))
      .onTerminate(actionAccepted());
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.billableCalls).toEqual(['start p1', `create ${L40S}`, 'terminate p1']);
    expect(result.outcome).toBe('Created');
    expect(sut.logs.messages('warn')).toEqual(['start of pod p1 refused (HTTP 500)']);
    expect(sut.actions.entries[0]).toEqual(
      wakeAction({
        action: 'Start',
        podId: 'p1',
        gpuId: null,
        pricePerHour: null,
        httpStatus: 500,
        ok: false,
        detail: 'no capacity on the host',
      }),
    );
  });

  it('a stale Exited pod listed FIRST next to a Running replacement: AlreadyRunning, no start, the stale pod terminated', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['stale', 'fresh']))
      .onObserve('stale', found('stale', 'Exited'))
      .onObserve('fresh', found('fresh', 'Running', 1), found('fresh', 'Running', 1))
      .onTerminate(actionAccepted(204));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      'list',
      'observe stale',
      'observe fresh',
      'observe fresh',
      'terminate stale',
    ]);
    expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'fresh' });
    expect(sut.actions.summary).toEqual(['Terminate stale ok']);
  });

  it('two Running pods: the first listed serves and its sibling is terminated as stale', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['a', 'b']))
      .onObserve('a', found('a', 'Running', 1), found('a', 'Running', 1))
      .onObserve('b', found('b', 'Running', 1))
      .onTerminate(actionAccepted());
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'a' });
    expect(runpod.calls).toEqual(['list', 'observe a', 'observe b', 'observe a', 'terminate b']);
  });

  it('a sibling already Terminated next to a Running pod is not terminated again', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['gone', 'p2']))
      .onObserve('gone', found('gone', 'Terminated'))
      .onObserve('p2', found('p2', 'Running', 1));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'p2' });
    expect(runpod.calls).toEqual(['list', 'observe gone', 'observe p2']);
    expect(sut.actions.entries).toEqual([]);
  });

  it('a Terminated sibling listed after the serving pod is skipped too, while another stale sibling is terminated', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p2', 'gone', 'old']))
      .onObserve('p2', found('p2', 'Running', 1), found('p2', 'Running', 1))
      .onObserve('gone', found('gone', 'Terminated'))
      .onObserve('old', found('old', 'Exited'))
      .onTerminate(actionAccepted());
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'p2' });
    expect(runpod.calls).toEqual([
      'list',
      'observe p2',
      'observe gone',
      'observe old',
      'observe p2',
      'terminate old',
    ]);
  });

  it.each<[string, PodObservation]>([
    ['Exited (would be started)', found('p1', 'Exited')],
    ['Terminated (would be replaced)', found('p1', 'Terminated')],
    ['Running with 0 GPUs (would be replaced)', found('p1', 'Running', 0)],
  ])(
    'a sibling in flight (Starting) blocks every start and create next to a pod that is %s, until max polls → Waiting with no write',
    async (_what, other) => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1', 'p2']))
        .alwaysObserve('p1', other)
        .alwaysObserve('p2', found('p2', 'Starting'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({
        outcome: 'Waiting',
        failureKind: null,
        // The pod coming up, not the sibling listed before it.
        podId: 'p2',
        gpuId: null,
        pricePerHour: null,
        message: `a pod on the volume is still starting after ${TEST_MAX_POLLS} observe rounds; poll again`,
      });
      expect(runpod.calls).toEqual(['list', ...rounds(TEST_MAX_POLLS, 'observe p1', 'observe p2')]);
      expect(sut.actions.entries).toEqual([]);
      expect(sut.sleeper.delays).toEqual(POLL_GAPS);
    },
  );

  it.each<[string, PodObservation]>([
    ['Provisioning', found('p1', 'Provisioning')],
    ['Starting', found('p1', 'Starting')],
    ['Unknown', found('p1', 'Unknown')],
    ['unreadable (an API blip)', unreadablePod('p1')],
  ])(
    'a lone pod that stays %s is repolled until max polls → Waiting, never started or replaced',
    async (_what, obs) => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .alwaysObserve('p1', obs);
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(result).toMatchObject({ outcome: 'Waiting', podId: 'p1', failureKind: null });
      expect(runpod.calls).toEqual(['list', ...rounds(TEST_MAX_POLLS, 'observe p1')]);
      expect(sut.actions.entries).toEqual([]);
    },
  );

  it('a pod Running with 0 GPUs is replaced, and terminated after the replacement runs', async () => {
    const runpod = replacingGpulessPod()
      .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1))
      .onTerminate(actionAccepted());
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      ...UNTIL_REPLACEMENT_CREATE,
      'observe new1',
      'observe new1',
      'terminate p1',
    ]);
    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
  });

  it('a Terminated pod is replaced without a start; the stale id goes through the guard only after the replacement runs', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Terminated'))
      .onCatalog(RANKED_CATALOG)
      .onCreate(created('new1'))
      .onObserve('new1', found('new1', 'Running', 1), found('new1', 'Running', 1))
      .onTerminate(actionRefused(404, 'pod not found'));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      ...UNTIL_REPLACEMENT_CREATE,
      'observe new1',
      'observe new1',
      'terminate p1',
    ]);
    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
  });

  describe('an observe 404 on a listed id is re-confirmed with the volume list before any create', () => {
    it('re-confirm unreadable → Failed, nothing created', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']), unreadableList('timeout'))
        .onObserve('p1', notFound('p1'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'list']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
      expect(result.message).toBe(
        'pod p1 read as not found and the volume lookup is unreadable (timeout); nothing was created',
      );
      expect(sut.actions.entries).toEqual([]);
    });

    it('re-confirm finds pods → drives that list instead (here a Running pod: AlreadyRunning, nothing created)', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']), volumeWith(['p2']))
        .onObserve('p1', notFound('p1'))
        .onObserve('p2', found('p2', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual(['list', 'observe p1', 'list', 'observe p2']);
      expect(result).toMatchObject({ outcome: 'AlreadyRunning', podId: 'p2' });
      expect(sut.actions.entries).toEqual([]);
      expect(sut.sleeper.delays).toEqual([POLL_GAPS[0]]);
    });

    it('re-confirm says no pod → creates, with nothing stale to terminate', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']), emptyVolume())
        .onObserve('p1', notFound('p1'))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', found('new1', 'Running', 1));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'list',
        'catalog',
        `create ${L40S}`,
        'observe new1',
      ]);
      expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    });

    it('a 404 next to a pod that can still be started starts it (only an all-replace round re-confirms); the 404 id is stale once it runs', async () => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1', 'p2']))
        .onObserve('p1', notFound('p1'), notFound('p1'))
        .onObserve('p2', found('p2', 'Exited'), found('p2', 'Running', 1), found('p2', 'Running', 1))
        .onStart(actionAccepted())
        .onTerminate(actionRefused(404, 'pod not found'));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([
        'list',
        'observe p1',
        'observe p2',
        'start p2',
        'observe p1',
        'observe p2',
        'observe p2',
        'terminate p1',
      ]);
      expect(result).toMatchObject({ outcome: 'Started', podId: 'p2' });
    });
  });
});
