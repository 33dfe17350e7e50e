import type { PodObservation, PodStatus } from '../domain/pod';
import { rankPods } from './pod-ranking';

interface RankedPod {
  readonly label: string;
  readonly observation: PodObservation;
}

function found(label: string, status: PodStatus, gpuCount = 1): RankedPod {
  return { label, observation: { kind: 'found', podId: label, status, gpuCount } };
}
function notFound(label: string): RankedPod {
  return { label, observation: { kind: 'not-found', podId: label } };
}
function unreadable(label: string): RankedPod {
  return { label, observation: { kind: 'unreadable', podId: label, reason: 'HTTP 502' } };
}

describe(rankPods.name, () => {
  it('an empty list names no pod', () => {
    expect(rankPods([])).toBeNull();
  });

  it.each<[string, RankedPod[], string]>([
    [
      'a serving pod listed after a stale Exited one is reported',
      [found('a', 'Exited'), found('b', 'Running')],
      'b',
    ],
    [
      'a serving pod wins over an in-flight one listed first',
      [found('a', 'Starting'), found('b', 'Running')],
      'b',
    ],
    ['Running with exactly one GPU is serving', [found('a', 'Provisioning'), found('b', 'Running', 1)], 'b'],
    [
      'Running without a GPU is not serving: the in-flight pod wins',
      [found('a', 'Running', 0), found('b', 'Starting')],
      'b',
    ],
    [
      'Running without a GPU is not serving: the first pod is reported',
      [found('a', 'Exited'), found('b', 'Running', 0)],
      'a',
    ],
    ['the first of two serving pods is reported', [found('a', 'Running', 2), found('b', 'Running', 1)], 'a'],
    ['a Provisioning pod is in flight', [found('a', 'Exited'), found('b', 'Provisioning')], 'b'],
    ['a Starting pod is in flight', [found('a', 'Error'), found('b', 'Starting')], 'b'],
    [
      'the first in-flight pod is reported',
      [found('a', 'Exited'), found('b', 'Starting'), found('c', 'Provisioning')],
      'b',
    ],
    [
      'an Unknown status is neither serving nor in flight',
      [found('a', 'Unknown'), found('b', 'Provisioning')],
      'b',
    ],
    [
      'with nothing serving or in flight the first listed pod is reported',
      [found('a', 'Exited'), found('b', 'Error')],
      'a',
    ],
    ['unreadable and missing pods fall back to the first listed', [unreadable('a'), notFound('b')], 'a'],
    ['a missing pod listed first does not hide a serving one', [notFound('a'), found('b', 'Running')], 'b'],
    ['a Terminated pod alone is still reported', [found('a', 'Terminated')], 'a'],
  ])('%s', (_rule, pods, expected) => {
    expect(rankPods(pods)?.label).toBe(expected);
  });

  it('returns the caller’s own item, extra fields included', () => {
    const serving = { ...found('b', 'Running'), proxyUrl: 'https://b-8000.proxy.runpod.net' };
    expect(rankPods([found('a', 'Exited'), serving])).toBe(serving);
  });
});
