import type { PodObservation, PodStatus, RealisedContract } from '../domain/pod';
import { judgeCreatedPod, type CreatedPodVerdict } from './created-pod-verdict';
import type { RequestedContract } from './realised-contract';

const requested: RequestedContract = {
  volumeId: 'vol-ours',
  dataCenterId: 'EU-RO-1',
  gpuId: 'NVIDIA L40S',
  maxPricePerHour: 1,
};
const faithful: RealisedContract = {
  volumeIds: ['vol-ours'],
  dataCenterId: 'EU-RO-1',
  gpuId: 'NVIDIA L40S',
  costPerHr: 0.86,
};
const noVolume: RealisedContract = { ...faithful, volumeIds: [] };

const seen = (
  status: PodStatus,
  gpuCount: number,
  realised: RealisedContract = faithful,
): PodObservation => ({
  kind: 'found',
  podId: 'new1',
  status,
  gpuCount,
  realised,
});

describe(judgeCreatedPod.name, () => {
  it.each<[string, PodObservation, CreatedPodVerdict]>([
    ['Running with a GPU, as asked', seen('Running', 1), { kind: 'running' }],
    ['not listed yet', { kind: 'not-found', podId: 'new1' }, { kind: 'wait' }],
    ['unreadable', { kind: 'unreadable', podId: 'new1', reason: 'http 502' }, { kind: 'wait' }],
    ['Provisioning, as asked', seen('Provisioning', 0), { kind: 'wait' }],
    ['Starting, as asked', seen('Starting', 1), { kind: 'wait' }],
    ['Unknown, as asked', seen('Unknown', 0), { kind: 'wait' }],
    ['Error', seen('Error', 0), { kind: 'failed', reached: 'Error with 0 GPU(s)' }],
    ['Exited before it ever ran', seen('Exited', 0), { kind: 'failed', reached: 'Exited with 0 GPU(s)' }],
    ['Running without a GPU', seen('Running', 0), { kind: 'failed', reached: 'Running with 0 GPU(s)' }],
    ['already Terminated', seen('Terminated', 0), { kind: 'gone' }],
    ['already Terminated, even without the volume', seen('Terminated', 0, noVolume), { kind: 'gone' }],
    [
      'Provisioning without our volume (first observation)',
      seen('Provisioning', 0, noVolume),
      { kind: 'mismatch', mismatches: [{ field: 'volume', expected: 'vol-ours', actual: 'none' }] },
    ],
    [
      'Running on another GPU (when it first runs)',
      seen('Running', 1, { ...faithful, gpuId: 'NVIDIA H100' }),
      { kind: 'mismatch', mismatches: [{ field: 'gpu', expected: 'NVIDIA L40S', actual: 'NVIDIA H100' }] },
    ],
    [
      'Error and without our volume: the mismatch is named',
      seen('Error', 0, noVolume),
      { kind: 'mismatch', mismatches: [{ field: 'volume', expected: 'vol-ours', actual: 'none' }] },
    ],
  ])('%s', (_, observation, verdict) => {
    expect(judgeCreatedPod(observation, requested)).toEqual(verdict);
  });
});
