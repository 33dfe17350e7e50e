import { parseConfig, type PodConfig } from '../config';
import type { ListedPod, PodList } from '../domain/pod';
import { billingPerVolume, statusesPerVolume } from './billing-census';

function pods(): PodConfig[] {
  const text = JSON.stringify({
    pods: [
      { name: 'qwen', volumeId: 'vol-a' },
      { name: 'llama', volumeId: 'vol-b' },
      { name: 'idle', volumeId: '' },
    ],
  });
  const parsed = parseConfig({ RUNPOD_API_KEY: 'k', PODS_CONFIG: 'pods.json' }, text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.config.pods;
}

function pod(id: string, status: string | null, volumeIds: string[]): ListedPod {
  return { id, name: null, status, volumeIds, costPerHr: 0.5, gpuId: null, createdAt: null };
}

describe('billingPerVolume', () => {
  it.each<[string, ListedPod[], number, number]>([
    ['nothing listed', [], 0, 0],
    ['one running on vol-a', [pod('a1', 'RUNNING', ['vol-a'])], 1, 0],
    [
      'EXITED and TERMINATED do not bill',
      [pod('a1', 'EXITED', ['vol-a']), pod('a2', 'TERMINATED', ['vol-a'])],
      0,
      0,
    ],
    [
      'a stale pod and its replacement both bill',
      [pod('a1', 'RUNNING', ['vol-a']), pod('a2', 'CREATED', ['vol-a'])],
      2,
      0,
    ],
    ['no status fails closed', [pod('b1', null, ['vol-b'])], 0, 1],
    ['a blank volume id is no configured volume', [pod('z', 'RUNNING', [''])], 0, 0],
    [
      'a pod on another volume is not counted',
      [pod('x', 'RUNNING', ['vol-x']), pod('b1', 'RUNNING', ['vol-b'])],
      0,
      1,
    ],
  ])('%s', (_case, listed, onA, onB) => {
    const list: PodList = { kind: 'listed', pods: listed };
    expect(billingPerVolume(list, pods())).toEqual([
      { pod: 'qwen', volume: 'vol-a', billing: onA },
      { pod: 'llama', volume: 'vol-b', billing: onB },
    ]);
  });

  it('an unreadable list tells nothing (never zero)', () => {
    expect(billingPerVolume({ kind: 'unreadable', reason: 'HTTP 500' }, pods())).toBeNull();
  });
});

describe('statusesPerVolume', () => {
  it.each<[string, ListedPod[], { pod: string; status: string; count: number }[]]>([
    ['nothing listed', [], []],
    [
      'one running on vol-a',
      [pod('a1', 'RUNNING', ['vol-a'])],
      [{ pod: 'qwen', status: 'RUNNING', count: 1 }],
    ],
    [
      'two statuses on one volume, sorted by status',
      [pod('a1', 'RUNNING', ['vol-a']), pod('a2', 'EXITED', ['vol-a']), pod('a3', 'EXITED', ['vol-a'])],
      [
        { pod: 'qwen', status: 'EXITED', count: 2 },
        { pod: 'qwen', status: 'RUNNING', count: 1 },
      ],
    ],
    ['no status is UNKNOWN', [pod('b1', null, ['vol-b'])], [{ pod: 'llama', status: 'UNKNOWN', count: 1 }]],
    [
      'a pod on another volume, or a configured pod without a volume, is not counted',
      [pod('x', 'RUNNING', ['vol-x']), pod('b1', 'CREATED', ['vol-b'])],
      [{ pod: 'llama', status: 'CREATED', count: 1 }],
    ],
    [
      'a listed pod with a blank volume id is not the volume-less configured pod’s',
      [pod('z', 'RUNNING', ['']), pod('a1', 'RUNNING', ['vol-a'])],
      [{ pod: 'qwen', status: 'RUNNING', count: 1 }],
    ],
  ])('%s', (_case, listed, expected) => {
    const list: PodList = { kind: 'listed', pods: listed };
    const volumes: Record<string, string> = { qwen: 'vol-a', llama: 'vol-b' };
    expect(statusesPerVolume(list, pods())).toEqual(
      expected.map((e) => ({ pod: e.pod, volume: volumes[e.pod], status: e.status, count: e.count })),
    );
  });

  it('an unreadable list is null, never an empty census', () => {
    expect(statusesPerVolume({ kind: 'unreadable', reason: 'HTTP 500' }, pods())).toBeNull();
  });
});
