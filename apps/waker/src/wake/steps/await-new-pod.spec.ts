import type { PodObservation } from '@podwarden/policies';
import { created, found, notFound, unreadablePod, volumeWith } from '@podwarden/testing';
import { L40S, PRICES, RANKED_CATALOG } from '../testing/gpu-catalogs';
import { TEST_MAX_POLLS } from '../testing/test-config';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { POLL_GAPS, rounds, replacingGpulessPod } from '../testing/wake-scenarios';
import { awaitNewPod } from './await-new-pod';

/** The pod this wake placed, through the whole run: polled to Running or to a verdict. */
describe(awaitNewPod.name, () => {
  it('never Running within max polls → Waiting on the new pod, stale pods left intact (no terminate)', async () => {
    const runpod = replacingGpulessPod()
      .onObserve('new1', notFound('new1'), unreadablePod('new1'), found('new1', 'Provisioning'))
      .alwaysObserve('new1', found('new1', 'Starting'));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      'list',
      'observe p1',
      'catalog',
      `create ${L40S}`,
      ...rounds(TEST_MAX_POLLS, 'observe new1'),
    ]);
    expect(result).toMatchObject({
      outcome: 'Waiting',
      failureKind: null,
      podId: 'new1',
      gpuId: L40S,
      pricePerHour: PRICES[L40S],
    });
    expect(result.message).toBe(
      `pod new1 created on ${L40S} but not running after ${TEST_MAX_POLLS} polls; stale pods left intact; poll again`,
    );
    expect(sut.actions.summary).toEqual(['Create new1 ok']);
    expect(sut.sleeper.delays).toEqual(POLL_GAPS);
  });

  it.each<[string, PodObservation]>([
    ['Exited', found('new1', 'Exited')],
    ['Error', found('new1', 'Error')],
    ['Terminated', found('new1', 'Terminated')],
    ['Running with 0 GPUs', found('new1', 'Running', 0)],
  ])('reaching %s → Failed "not retrying", no second create, nothing terminated', async (_what, terminal) => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Terminated'))
      .onCatalog(RANKED_CATALOG)
      .onCreate(created('new1'))
      .onObserve('new1', found('new1', 'Starting'), terminal);
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([
      'list',
      'observe p1',
      'catalog',
      `create ${L40S}`,
      'observe new1',
      'observe new1',
    ]);
    expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', podId: 'new1' });
    expect(result.message).toMatch(/^new pod new1 reached .* GPU\(s\); not retrying$/);
  });
});
