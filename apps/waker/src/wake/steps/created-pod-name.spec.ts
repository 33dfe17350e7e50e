import { testConfig, testPod } from '../testing/test-config';
import { createdPodName, utcStamp } from './created-pod-name';

describe(utcStamp.name, () => {
  it('is sortable and legal in a pod name (no dashes, colons or milliseconds)', () => {
    expect(utcStamp(new Date('2026-11-30T10:15:00.123Z'))).toBe('20261130T101500Z');
  });
});

describe(createdPodName.name, () => {
  it('is the prefix, the friendly name and the UTC stamp', () => {
    const config = testConfig({ POD_NAME_PREFIX: 'pw-' });
    expect(createdPodName(config, testPod(config), new Date('2026-01-02T03:04:05.000Z'))).toBe(
      'pw-qwen-20260102T030405Z',
    );
  });
});
