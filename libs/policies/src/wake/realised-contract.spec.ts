import type { RealisedContract } from '../domain/pod';
import {
  checkRealisedContract,
  describeMismatches,
  type ContractMismatch,
  type RequestedContract,
} from './realised-contract';

const requested: RequestedContract = {
  volumeId: 'vol-ours',
  dataCenterId: 'EU-RO-1',
  gpuId: 'NVIDIA RTX A6000',
  maxPricePerHour: 1,
};

const faithful: RealisedContract = {
  volumeIds: ['vol-ours'],
  dataCenterId: 'EU-RO-1',
  gpuId: 'NVIDIA RTX A6000',
  costPerHr: 0.49,
};

describe(checkRealisedContract.name, () => {
  it.each<[string, RealisedContract]>([
    ['exactly what was asked', faithful],
    ['our volume among others', { ...faithful, volumeIds: ['vol-x', 'vol-ours'] }],
    ['the GPU id in another case (ids are case-insensitive)', { ...faithful, gpuId: 'nvidia rtx a6000' }],
    ['a price exactly at the cap (inclusive)', { ...faithful, costPerHr: 1 }],
    ['no price reported (only a reported price can be judged)', { ...faithful, costPerHr: null }],
  ])('accepts %s', (_, realised) => {
    expect(checkRealisedContract(requested, realised)).toEqual({ ok: true });
  });

  it.each<[string, RealisedContract | undefined, ContractMismatch[]]>([
    [
      'a pod without any network volume',
      { ...faithful, volumeIds: [] },
      [{ field: 'volume', expected: 'vol-ours', actual: 'none' }],
    ],
    [
      'a pod on another volume',
      { ...faithful, volumeIds: ['vol-x'] },
      [{ field: 'volume', expected: 'vol-ours', actual: 'vol-x' }],
    ],
    [
      'a pod on two other volumes',
      { ...faithful, volumeIds: ['vol-x', 'vol-y'] },
      [{ field: 'volume', expected: 'vol-ours', actual: 'vol-x, vol-y' }],
    ],
    [
      'a pod in another datacenter',
      { ...faithful, dataCenterId: 'US-TX-3' },
      [{ field: 'datacenter', expected: 'EU-RO-1', actual: 'US-TX-3' }],
    ],
    [
      'a pod whose datacenter is not reported',
      { ...faithful, dataCenterId: null },
      [{ field: 'datacenter', expected: 'EU-RO-1', actual: 'not reported' }],
    ],
    [
      'a pod on another GPU',
      { ...faithful, gpuId: 'NVIDIA L40S' },
      [{ field: 'gpu', expected: 'NVIDIA RTX A6000', actual: 'NVIDIA L40S' }],
    ],
    [
      'a pod whose GPU is not reported',
      { ...faithful, gpuId: null },
      [{ field: 'gpu', expected: 'NVIDIA RTX A6000', actual: 'not reported' }],
    ],
    [
      'a pod above the cap',
      { ...faithful, costPerHr: 1.01 },
      [{ field: 'price', expected: 'at most 1 USD/h', actual: '1.01 USD/h' }],
    ],
    [
      'a read that carried no contract at all',
      undefined,
      [{ field: 'volume', expected: 'vol-ours', actual: 'not reported' }],
    ],
    [
      'everything wrong at once, each field named',
      { volumeIds: [], dataCenterId: 'US-TX-3', gpuId: 'NVIDIA H100', costPerHr: 2.99 },
      [
        { field: 'volume', expected: 'vol-ours', actual: 'none' },
        { field: 'datacenter', expected: 'EU-RO-1', actual: 'US-TX-3' },
        { field: 'gpu', expected: 'NVIDIA RTX A6000', actual: 'NVIDIA H100' },
        { field: 'price', expected: 'at most 1 USD/h', actual: '2.99 USD/h' },
      ],
    ],
  ])('refuses %s', (_, realised, mismatches) => {
    expect(checkRealisedContract(requested, realised)).toEqual({ ok: false, mismatches });
  });
});

describe(describeMismatches.name, () => {
  it('names each field with both values', () => {
    expect(
      describeMismatches([
        { field: 'volume', expected: 'vol-ours', actual: 'none' },
        { field: 'gpu', expected: 'A', actual: 'B' },
      ]),
    ).toBe('volume: expected vol-ours, got none; gpu: expected A, got B');
  });
});
