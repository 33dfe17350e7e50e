import type { PodConfig, PodwardenConfig } from './config-types';
import { parseConfig } from './parse-config';
import { findPod, isPodConfigured, proxyUrlFor } from './pod-lookup';

function configWith(env: Record<string, string>, podsText: string | null = null): PodwardenConfig {
  const result = parseConfig(env, podsText);
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

const twoPods = configWith(
  { PODS_CONFIG: 'pods.json', RUNPOD_API_KEY: 'key' },
  JSON.stringify({
    pods: [
      { name: 'Qwen', volumeId: 'v1' },
      { name: 'llama-3.1', volumeId: '' },
    ],
  }),
);

describe(findPod.name, () => {
  it.each([
    ['Qwen', 'Qwen'],
    ['qwen', 'Qwen'],
    ['QWEN', 'Qwen'],
    ['LLAMA-3.1', 'llama-3.1'],
  ])('finds %j case-insensitively', (asked, found) => {
    expect(findPod(twoPods, asked)?.name).toBe(found);
  });

  it.each(['', 'qwen ', 'mistral', 'qwe'])('an unknown name %j finds no pod', (asked) => {
    expect(findPod(twoPods, asked)).toBeNull();
  });
});

describe(isPodConfigured.name, () => {
  const pod = (volumeId: string): PodConfig => ({ ...twoPods.pods[0], volumeId });

  it.each([
    ['key and volume', 'key', 'v1', true],
    ['no key', '', 'v1', false],
    ['blank volume', 'key', '', false],
    ['whitespace volume', 'key', '  ', false],
    ['neither', '', '', false],
  ])('%s ⇒ %s', (_case, apiKey, volumeId, expected) => {
    const config = configWith(apiKey === '' ? {} : { RUNPOD_API_KEY: apiKey });
    expect(isPodConfigured(config, pod(volumeId))).toBe(expected);
  });

  it('a pod in a multi-pod file with a blank volume is unconfigured while its sibling is configured', () => {
    expect(twoPods.pods.map((p) => isPodConfigured(twoPods, p))).toEqual([true, false]);
  });
});

describe(proxyUrlFor.name, () => {
  it.each([
    ['https://{podId}-{port}.proxy.runpod.net', 'abc123', 8000, 'https://abc123-8000.proxy.runpod.net'],
    ['http://127.0.0.1:9100/proxy/{podId}/{port}', 'abc123', 8001, 'http://127.0.0.1:9100/proxy/abc123/8001'],
    ['http://sim/{podId}', 'abc', 8000, 'http://sim/abc'],
    ['http://sim/{podId}/{podId}:{port}', 'abc', 1, 'http://sim/abc/abc:1'],
    ['http://sim/{podId}', 'a/b?c', 8000, 'http://sim/a%2Fb%3Fc'],
  ])('%s with pod %j on port %d is %s', (template, podId, port, expected) => {
    expect(proxyUrlFor(template, podId, port)).toBe(expected);
  });
});
