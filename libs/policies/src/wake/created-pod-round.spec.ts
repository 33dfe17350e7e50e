import type { PodObservation, PodStatus, RealisedContract } from '../domain/pod';
import {
  decideCreatedPodRound,
  describeLeftToBoot,
  type CreatedPodStep,
  type LastSeen,
} from './created-pod-round';
import type { ContractMismatch, RequestedContract } from './realised-contract';

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
const VOLUME_MISSING: readonly ContractMismatch[] = [
  { field: 'volume', expected: 'vol-ours', actual: 'none' },
];

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
const failed = (reached: string): CreatedPodStep => ({
  kind: 'tear-down',
  verdict: { kind: 'failed', reached },
});
const leave = (lastSeen: LastSeen): CreatedPodStep => ({ kind: 'leave-to-boot', lastSeen });

/**
 * Every state the pod this wake created can be read in, with polls left and at
 * give-up (the last poll): only a terminal verdict is torn down; a pod still
 * coming up when the polls run out is left to boot, never terminated.
 */
describe(decideCreatedPodRound.name, () => {
  it.each<[string, PodObservation, CreatedPodStep, CreatedPodStep]>([
    // what was read                       polls left                 at give-up
    [
      'PROVISIONING',
      seen('Provisioning', 0),
      { kind: 'poll-again' },
      leave({ kind: 'booting', status: 'Provisioning' }),
    ],
    ['STARTING', seen('Starting', 0), { kind: 'poll-again' }, leave({ kind: 'booting', status: 'Starting' })],
    // The client reads RUNNING without a runtime (the GPU still attaching) as Starting.
    [
      'RUNNING, GPU attaching (Starting)',
      seen('Starting', 1),
      { kind: 'poll-again' },
      leave({ kind: 'booting', status: 'Starting' }),
    ],
    ['a status we cannot name', seen('Unknown', 0), { kind: 'poll-again' }, leave({ kind: 'unnamed' })],
    [
      'unreadable',
      { kind: 'unreadable', podId: 'new1', reason: 'http 502' },
      { kind: 'poll-again' },
      leave({ kind: 'unread', why: 'unreadable (http 502)' }),
    ],
    [
      'not listed yet',
      { kind: 'not-found', podId: 'new1' },
      { kind: 'poll-again' },
      leave({ kind: 'unread', why: 'not listed yet' }),
    ],
    ['RUNNING with a GPU, as asked', seen('Running', 1), { kind: 'running' }, { kind: 'running' }],
    [
      'RUNNING without a GPU',
      seen('Running', 0),
      failed('Running with 0 GPU(s)'),
      failed('Running with 0 GPU(s)'),
    ],
    [
      'EXITED before it ever ran',
      seen('Exited', 0),
      failed('Exited with 0 GPU(s)'),
      failed('Exited with 0 GPU(s)'),
    ],
    ['ERROR', seen('Error', 1), failed('Error with 1 GPU(s)'), failed('Error with 1 GPU(s)')],
    ['TERMINATED', seen('Terminated', 0), { kind: 'gone' }, { kind: 'gone' }],
    ['TERMINATED without our volume', seen('Terminated', 0, noVolume), { kind: 'gone' }, { kind: 'gone' }],
    [
      'PROVISIONING without our volume',
      seen('Provisioning', 0, noVolume),
      { kind: 'tear-down', verdict: { kind: 'mismatch', mismatches: VOLUME_MISSING } },
      { kind: 'tear-down', verdict: { kind: 'mismatch', mismatches: VOLUME_MISSING } },
    ],
    [
      'STARTING on another GPU',
      seen('Starting', 0, { ...faithful, gpuId: 'NVIDIA H100' }),
      {
        kind: 'tear-down',
        verdict: {
          kind: 'mismatch',
          mismatches: [{ field: 'gpu', expected: 'NVIDIA L40S', actual: 'NVIDIA H100' }],
        },
      },
      {
        kind: 'tear-down',
        verdict: {
          kind: 'mismatch',
          mismatches: [{ field: 'gpu', expected: 'NVIDIA L40S', actual: 'NVIDIA H100' }],
        },
      },
    ],
  ])('%s: %j with polls left, %j at give-up', (_, observation, withPollsLeft, atGiveUp) => {
    expect(decideCreatedPodRound(observation, requested, true)).toEqual(withPollsLeft);
    expect(decideCreatedPodRound(observation, requested, false)).toEqual(atGiveUp);
  });
});

describe(describeLeftToBoot.name, () => {
  it.each<[LastSeen, string, string]>([
    [
      { kind: 'booting', status: 'Provisioning' },
      'still Provisioning',
      'boot grace stops it if it is not ready within RUNPOD_BOOT_GRACE_MINUTES',
    ],
    [
      { kind: 'booting', status: 'Starting' },
      'still Starting',
      'boot grace stops it if it is not ready within RUNPOD_BOOT_GRACE_MINUTES',
    ],
    [
      { kind: 'unnamed' },
      'in a status podwarden cannot name',
      'boot grace stops it once it is seen booting and not ready in time, the runtime cap in any case',
    ],
    [
      { kind: 'unread', why: 'not listed yet' },
      'not listed yet',
      'boot grace stops it if it boots on the volume and is not ready in time, the orphan sweep if it is off the volume',
    ],
  ])('%j: "%s", guarded: "%s"', (lastSeen, seenWords, guard) => {
    expect(describeLeftToBoot(lastSeen)).toEqual({ seen: seenWords, guard });
  });
});
