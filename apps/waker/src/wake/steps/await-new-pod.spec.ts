import type { PodObservation } from '@podwarden/policies';
import {
  actionAccepted,
  actionRefused,
  created,
  found,
  notFound,
  placedOn,
  unreadablePod,
  volumeWith,
} from '@podwarden/testing';
import { L40S, PRICES, RANKED_CATALOG } from '../testing/gpu-catalogs';
import { TEST_MAX_POLLS } from '../testing/test-config';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { POLL_GAPS, rounds, replacingGpulessPod, wakeAction } from '../testing/wake-scenarios';
import { awaitNewPod } from './await-new-pod';

const CREATE_CALLS = ['list', 'observe p1', 'catalog', `create ${L40S}`];

/** The pod this wake placed, through the whole run: polled to Running, left to boot, or torn down by the wake. */
describe(awaitNewPod.name, () => {
  it('still Starting when the polls run out → Waiting, left to boot: no terminate, stale pods left intact', async () => {
    const runpod = replacingGpulessPod()
      .onObserve('new1', notFound('new1'), unreadablePod('new1'), found('new1', 'Provisioning'))
      .alwaysObserve('new1', found('new1', 'Starting'));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual([...CREATE_CALLS, ...rounds(TEST_MAX_POLLS, 'observe new1')]);
    expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
    expect(result).toMatchObject({
      outcome: 'Waiting',
      failureKind: null,
      podId: 'new1',
      gpuId: L40S,
      pricePerHour: PRICES[L40S],
    });
    expect(result.message).toBe(
      `pod new1 created on ${L40S} at ${PRICES[L40S]} USD/h is still Starting after ${TEST_MAX_POLLS} polls; ` +
        'left to boot, not terminated: boot grace stops it if it is not ready within RUNPOD_BOOT_GRACE_MINUTES; ' +
        'stale pods left intact; poll again',
    );
    expect(sut.actions.summary).toEqual(['Create new1 ok']);
    expect(sut.sleeper.delays).toEqual(POLL_GAPS);
  });

  it.each<[string, PodObservation, string]>([
    ['Provisioning', found('new1', 'Provisioning'), 'is still Provisioning'],
    ['unreadable', unreadablePod('new1'), 'is unreadable ('],
    ['not listed yet', notFound('new1'), 'is not listed yet'],
    ['in a status we cannot name', found('new1', 'Unknown'), 'is in a status podwarden cannot name'],
  ])('last read %s when the polls run out → Waiting, nothing terminated', async (_what, last, seen) => {
    const runpod = replacingGpulessPod().alwaysObserve('new1', last);
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
    expect(result).toMatchObject({ outcome: 'Waiting', podId: 'new1', gpuId: L40S });
    expect(result.message).toContain(seen);
    expect(result.message).toContain('left to boot, not terminated');
  });

  it('a pod that runs on the last poll is Created, not left to boot', async () => {
    const runpod = replacingGpulessPod()
      .onObserve('new1', ...Array.from({ length: TEST_MAX_POLLS - 1 }, () => found('new1', 'Starting')))
      .alwaysObserve('new1', found('new1', 'Running'))
      .onTerminate(actionAccepted(204));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result).toMatchObject({ outcome: 'Created', podId: 'new1' });
    expect(runpod.billableCalls).toEqual([`create ${L40S}`, 'terminate p1']);
  });

  it.each<[string, PodObservation]>([
    ['Exited (before it ever ran)', found('new1', 'Exited')],
    ['Error', found('new1', 'Error')],
    ['Running with 0 GPUs', found('new1', 'Running', 0)],
  ])(
    'reaching %s → terminated by its wake, Failed "not retrying", no second create',
    async (_what, terminal) => {
      const runpod = replacingGpulessPod()
        .onObserve('new1', found('new1', 'Starting'), terminal)
        .onTerminate(actionAccepted(204));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.calls).toEqual([...CREATE_CALLS, 'observe new1', 'observe new1', 'terminate new1']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', podId: 'new1' });
      expect(result.message).toMatch(
        /^new pod new1 reached .* GPU\(s\); terminated by this wake; not retrying$/,
      );
      expect(sut.actions.entries[1]).toEqual(
        wakeAction({
          action: 'Terminate',
          podId: 'new1',
          gpuId: L40S,
          pricePerHour: PRICES[L40S],
          httpStatus: 204,
          ok: true,
          detail: expect.stringMatching(/^reached /) as unknown as string,
        }),
      );
    },
  );

  it('a failed pod whose terminate is refused: the answer says it may still bill', async () => {
    const runpod = replacingGpulessPod()
      .onObserve('new1', found('new1', 'Error'))
      .onTerminate(actionRefused(500));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(result.message).toBe(
      'new pod new1 reached Error with 0 GPU(s); its terminate was refused (HTTP 500); it may still bill; not retrying',
    );
    expect(sut.actions.summary).toEqual(['Create new1 ok', 'Terminate new1 refused']);
  });

  it('already Terminated → Failed, nothing left to terminate', async () => {
    const runpod = replacingGpulessPod().onObserve('new1', found('new1', 'Terminated'));
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.billableCalls).toEqual([`create ${L40S}`]);
    expect(result.message).toBe('new pod new1 reached Terminated; not retrying');
  });

  it.each<[string, PodObservation, string]>([
    [
      'without our volume at its first observation',
      found('new1', 'Provisioning', 0, placedOn(L40S, { volumeIds: [] })),
      'volume: expected vol-ours, got none',
    ],
    [
      'on another GPU when it first runs',
      found('new1', 'Running', 1, placedOn('NVIDIA H100 80GB HBM3')),
      `gpu: expected ${L40S}, got NVIDIA H100 80GB HBM3`,
    ],
    [
      'in another datacenter and above the cap',
      found('new1', 'Starting', 0, placedOn(L40S, { dataCenterId: 'US-TX-3', costPerHr: 2.5 })),
      'datacenter: expected EU-RO-1, got US-TX-3; price: expected at most 2 USD/h, got 2.5 USD/h',
    ],
  ])(
    'a pod %s is terminated, never adopted, Failed naming each field',
    async (_what, observation, fields) => {
      const runpod = scriptedRunPod()
        .onList(volumeWith(['p1']))
        .onObserve('p1', found('p1', 'Running', 0))
        .onCatalog(RANKED_CATALOG)
        .onCreate(created('new1'))
        .onObserve('new1', observation)
        .onTerminate(actionAccepted(204));
      const sut = wakeRunHarness(runpod);

      const result = await sut.run();

      expect(runpod.billableCalls).toEqual([`create ${L40S}`, 'terminate new1']);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'provider', podId: 'new1' });
      expect(result.message).toBe(
        `new pod new1 is not the pod asked for (${fields}); terminated by this wake`,
      );
      expect(sut.actions.summary).toEqual(['Create new1 ok', 'Terminate new1 ok']);
      // RunPod gave no detail: the terminate's row says why the wake tore its pod down.
      expect(sut.actions.entries[1]?.detail).toBe(`not the pod asked for: ${fields}`);
    },
  );
});
