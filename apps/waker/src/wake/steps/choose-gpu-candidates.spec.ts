import type { FakeRunPod } from '@podwarden/testing';
import { emptyVolume, found, volumeWith } from '@podwarden/testing';
import { INCIDENT_CATALOG, INCIDENT_EXCLUSIONS, RANKED_CATALOG } from '../testing/gpu-catalogs';
import { scriptedRunPod, wakeRunHarness } from '../testing/wake-run-harness';
import { chooseGpuCandidates } from './choose-gpu-candidates';

/** Before any create, through the whole run: the template check and the GPU selection. */
describe(chooseGpuCandidates.name, () => {
  it.each<[string, () => FakeRunPod, string[]]>([
    ['no pod is on the volume', () => scriptedRunPod().onList(emptyVolume()), ['list']],
    [
      'the only pod is Running with 0 GPUs',
      () =>
        scriptedRunPod()
          .onList(volumeWith(['p1']))
          .onObserve('p1', found('p1', 'Running', 0)),
      ['list', 'observe p1'],
    ],
  ])(
    'a blank template refuses before any catalog or create call when %s',
    async (_when, script, expectedCalls) => {
      const runpod = script();
      const sut = wakeRunHarness(runpod, { pod: { templateId: ' ' } });

      const result = await sut.run();

      expect(runpod.calls).toEqual(expectedCalls);
      expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', candidatesConsidered: 0 });
      expect(result.message).toBe('RUNPOD_TEMPLATE_ID is not set, so the wake refuses to create a pod');
      expect(sut.actions.entries).toEqual([]);
    },
  );

  it('zero eligible GPUs refuses, naming EVERY excluded GPU with its reason (the price-cap incident)', async () => {
    const runpod = scriptedRunPod().onList(emptyVolume()).onCatalog(INCIDENT_CATALOG);
    const sut = wakeRunHarness(runpod, { env: { RUNPOD_MAX_PRICE_PER_HOUR: '1.00' } });

    const result = await sut.run();

    expect(runpod.calls).toEqual(['list', 'catalog']);
    expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused', candidatesConsidered: 0 });
    expect(result.message).toMatch(
      /^no pod can be created: no GPU in EU-RO-1 is eligible under 1\.00 USD\/h: /,
    );
    for (const [gpuId, reason] of INCIDENT_EXCLUSIONS) {
      expect(result.message).toContain(`${gpuId}: ${reason}`);
    }
    expect(sut.actions.entries).toEqual([]);
  });

  it('an empty (or unreadable) catalog refuses and says so', async () => {
    const runpod = scriptedRunPod().onList(emptyVolume()).onCatalog([]);
    const sut = wakeRunHarness(runpod);

    const result = await sut.run();

    expect(runpod.calls).toEqual(['list', 'catalog']);
    expect(result).toMatchObject({ outcome: 'Failed', failureKind: 'refused' });
    expect(result.message).toBe('no pod can be created: the GPU catalog is unreadable or empty');
  });

  it('logs the ranked candidates and the stale pods it will replace before the first create', async () => {
    const runpod = scriptedRunPod()
      .onList(volumeWith(['p1']))
      .onObserve('p1', found('p1', 'Running', 0))
      .onCatalog(RANKED_CATALOG)
      .onCreate(() => {
        throw new Error('stop the scenario at the first create');
      });
    const sut = wakeRunHarness(runpod);

    await expect(sut.run()).rejects.toThrow('stop the scenario at the first create');

    expect(sut.logs.find('creating a replacement')).toEqual([
      expect.objectContaining({
        level: 30,
        candidates: ['NVIDIA L40S@0.86', 'NVIDIA A100 80GB PCIe@1.19', 'NVIDIA RTX A6000@1.49'],
        stalePodIds: ['p1'],
        msg: 'no pod on volume vol-ours can serve; creating a replacement',
      }),
    ]);
  });
});
