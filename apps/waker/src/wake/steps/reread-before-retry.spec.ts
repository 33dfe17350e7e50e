import {
  actionAccepted,
  createRefused,
  created,
  emptyVolume,
  found,
  placedOn,
  unreadableList,
  volumeWith,
} from '@podwarden/testing';
import { L40S, PRICES, RANKED_CATALOG } from '../testing/gpu-catalogs';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { wakeAction, UNTIL_REPLACEMENT_CREATE } from '../testing/wake-scenarios';
import { rereadBeforeRetry } from './reread-before-retry';

/** Before a re-post, through the whole run: the wait, the re-read, and adopting what a 5xx placed. */
describe(rereadBeforeRetry.name, () => {
  it('an unreadable re-read before a retry → Failed, no re-post', async () => {
    const runpod = scriptedRunPod()
      .onList(emptyVolume(), unreadableList('http 500'))
      .onCatalog(RANKED_CATALOG)
      .onCreate(createRefused(503));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual(['list', 'catalog', `create ${L40S}`, 'list']);
    expect(result.outcome).toBe('Failed');
    expect(result.message).toBe('volume lookup unreadable (http 500) before a create; not posting');
  });

  it('503, then the re-read finds a pod that is not stale: it is adopted (no second POST, Create recorded as adopted) and polled to Running', async () => {
    const runpod = scriptedRunPod()
      .onList(emptyVolume(), volumeWith(['new1']))
      .onCatalog(RANKED_CATALOG)
      .onCreate(createRefused(503, 1))
      .onObserve(
        'new1',
        found('new1', 'Starting', 0, placedOn(L40S)),
        found('new1', 'Running', 1, placedOn(L40S)),
      );
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      'list',
      'catalog',
      `create ${L40S}`,
      'list',
      'observe new1',
      'observe new1',
    ]);
    expect(result).toMatchObject({
      outcome: 'Created',
      podId: 'new1',
      gpuId: L40S,
      pricePerHour: PRICES[L40S],
    });
    expect(sut.actions.entries).toEqual([
      wakeAction({
        action: 'Create',
        podId: null,
        gpuId: L40S,
        pricePerHour: PRICES[L40S],
        httpStatus: 503,
        ok: false,
        detail: 'create refused with 503',
      }),
      wakeAction({
        action: 'Create',
        podId: 'new1',
        gpuId: L40S,
        pricePerHour: PRICES[L40S],
        httpStatus: 503,
        ok: true,
        detail: 'adopted after a transient create failure',
      }),
    ]);
    expect(sut.logs.find('adopting pod new1')).toEqual([
      expect.objectContaining({ level: 30, billable: 'Create', podId: 'new1', gpuId: L40S }),
    ]);
  });

  it('503 next to a stale pod: the re-read skips the stale id, adopts the new one, and terminates the stale pod once it runs', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']), volumeWith(['p1', 'new1']))
      .onObserve('p1', found('p1', 'Running', 0))
      .onCatalog(RANKED_CATALOG)
      .onCreate(createRefused(503))
      .onObserve('new1', found('new1', 'Running', 1, placedOn(L40S)), found('new1', 'Running', 1))
      .onTerminate(actionAccepted());
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      ...UNTIL_REPLACEMENT_CREATE,
      'list',
      'observe new1',
      'observe new1',
      'terminate p1',
    ]);
    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
  });

  it('a re-read that lists only the stale pod re-posts the same candidate (the stale pod is never adopted)', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']), volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Terminated'))
      .onCatalog(RANKED_CATALOG)
      .onCreate(createRefused(503), created('new1'))
      .onObserve('new1', found('new1', 'Running', 1, placedOn(L40S)), found('new1', 'Running', 1))
      .onTerminate(actionAccepted());
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      ...UNTIL_REPLACEMENT_CREATE,
      'list',
      `create ${L40S}`,
      'observe new1',
      'observe new1',
      'terminate p1',
    ]);
    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
  });
});
