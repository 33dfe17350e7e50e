import type { PodwardenConfig } from './config-types';
import { monitorSetup, monitorSetupWarning, type MonitorSetup } from './monitor-setup';
import { parseConfig } from './parse-config';
import { isPodConfigured } from './pod-lookup';

function configWith(env: Record<string, string>, pods: ReadonlyArray<Record<string, string>> | null = null) {
  const result = parseConfig(
    pods === null ? env : { ...env, PODS_CONFIG: 'pods.json' },
    pods === null ? null : JSON.stringify({ pods }),
  );
  if (!result.ok) throw new Error(result.error);
  return result.config;
}

const VOLUME_HINT = '(RUNPOD_VOLUME_ID, or volumeId in PODS_CONFIG)';

describe(monitorSetup.name, () => {
  it.each<[string, PodwardenConfig, MonitorSetup]>([
    [
      'key and volume: configured, watches the pod',
      configWith({ RUNPOD_API_KEY: 'k', RUNPOD_VOLUME_ID: 'v1' }),
      { configured: true, watched: ['qwen'], missing: [] },
    ],
    [
      'no key: watches nothing, names the key',
      configWith({ RUNPOD_VOLUME_ID: 'v1' }),
      { configured: false, watched: [], missing: ['RUNPOD_API_KEY'] },
    ],
    [
      'a blank key is no key',
      configWith({ RUNPOD_API_KEY: '  ', RUNPOD_VOLUME_ID: 'v1' }),
      { configured: false, watched: [], missing: ['RUNPOD_API_KEY'] },
    ],
    [
      'no volume: names the pod and where its volume is set',
      configWith({ RUNPOD_API_KEY: 'k' }),
      { configured: false, watched: [], missing: [`a volume for "qwen" ${VOLUME_HINT}`] },
    ],
    [
      'neither: names both',
      configWith({}),
      { configured: false, watched: [], missing: ['RUNPOD_API_KEY', `a volume for "qwen" ${VOLUME_HINT}`] },
    ],
    [
      'a pods file with one volumeless pod: the other is still watched',
      configWith({ RUNPOD_API_KEY: 'k' }, [
        { name: 'a', volumeId: 'v1' },
        { name: 'b', volumeId: '' },
        { name: 'c', volumeId: 'v3' },
        { name: 'd', volumeId: '' },
      ]),
      { configured: false, watched: ['a', 'c'], missing: [`a volume for "b", "d" ${VOLUME_HINT}`] },
    ],
    [
      'a pods file, every pod with a volume: configured',
      configWith({ RUNPOD_API_KEY: 'k' }, [
        { name: 'a', volumeId: 'v1' },
        { name: 'b', volumeId: 'v2' },
      ]),
      { configured: true, watched: ['a', 'b'], missing: [] },
    ],
  ])('%s', (_why, config, expected) => {
    const setup = monitorSetup(config);
    expect(setup).toEqual(expected);
    // The same pods the ticks act on: configured means no pod is skipped as unconfigured.
    expect(setup.watched).toEqual(config.pods.filter((p) => isPodConfigured(config, p)).map((p) => p.name));
    expect(setup.configured).toBe(config.pods.every((p) => isPodConfigured(config, p)));
  });
});

describe(monitorSetupWarning.name, () => {
  it.each<[string, MonitorSetup, string | null]>([
    ['configured: no warning', { configured: true, watched: ['qwen'], missing: [] }, null],
    [
      'no key',
      { configured: false, watched: [], missing: ['RUNPOD_API_KEY'] },
      'idle monitor unconfigured, missing RUNPOD_API_KEY: it watches no pod and stops nothing',
    ],
    [
      'two things missing, some pods watched',
      { configured: false, watched: ['a', 'c'], missing: ['X', 'Y'] },
      'idle monitor unconfigured, missing X and Y: it watches only "a", "c"',
    ],
  ])('%s', (_why, setup, expected) => {
    expect(monitorSetupWarning(setup)).toBe(expected);
  });
});
