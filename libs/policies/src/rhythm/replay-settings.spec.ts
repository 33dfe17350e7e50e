import type { PodConfig, RhythmConfig } from '../config/config-types';
import { replaySettingsFromEnvironment, rhythmSettingsFor } from './replay-settings';

const pod: PodConfig = {
  name: 'qwen',
  volumeId: 'vol',
  templateId: 'tpl',
  datacenterId: 'EU-RO-1',
  podPort: 8000,
  minVramGb: 32,
  maxPricePerHour: 0.79,
  gpuAllowlist: [],
  idleMinutes: 15,
  bootGraceMinutes: 20,
  maxRuntimeMinutes: 360,
  proxyHoldSeconds: 0,
  inferenceToken: null,
  idlePolicy: 'adaptive',
};

const rhythm: RhythmConfig = {
  minMinutes: 2,
  maxMinutes: 10,
  prewake: false,
  prewakeMaxPerDay: 3,
  usageRetentionDays: 14,
};

describe('rhythmSettingsFor', () => {
  it('applies the pod and rhythm settings as the idle monitor does', () => {
    expect(rhythmSettingsFor(pod, rhythm, 30)).toEqual({
      policy: 'adaptive',
      idleMinutes: 15,
      minMinutes: 2,
      maxMinutes: 10,
      checkSeconds: 30,
      prewake: false,
      prewakeMaxPerDay: 3,
      retentionDays: 14,
      fallbackPricePerHour: 0.79,
    });
  });

  it.each<[string, number, number | null, number, number]>([
    // [idleMinutes, rhythm min, rhythm max] → [min, max]: no ceiling set means the pod's own window.
    ['no ceiling: the pod window', 2, null, 2, 15],
    ['a ceiling below the pod window', 2, 10, 2, 10],
    ['a ceiling above the pod window is kept', 2, 30, 2, 30],
    // The floor never rises above the ceiling.
    ['a floor above the ceiling is cut to it', 12, 10, 10, 10],
    ['a floor above the pod window, no ceiling', 20, null, 15, 15],
    ['a floor equal to the ceiling', 10, 10, 10, 10],
  ])('%s', (_name, minMinutes, maxMinutes, expectedMin, expectedMax) => {
    const settings = rhythmSettingsFor(pod, { ...rhythm, minMinutes, maxMinutes }, 60);
    expect({ min: settings.minMinutes, max: settings.maxMinutes }).toEqual({
      min: expectedMin,
      max: expectedMax,
    });
  });

  it('keeps the fixed policy of a fixed pod', () => {
    expect(rhythmSettingsFor({ ...pod, idlePolicy: 'fixed' }, rhythm, 60).policy).toBe('fixed');
  });
});

describe('replaySettingsFromEnvironment', () => {
  it('replays with every default when nothing is set', () => {
    const warnings: string[] = [];
    expect(replaySettingsFromEnvironment({}, warnings)).toEqual({
      idleMinutes: 15,
      minMinutes: 2,
      maxMinutes: 15,
      checkSeconds: 60,
      prewake: true,
      prewakeMaxPerDay: 4,
      retentionDays: 28,
      bootGraceMinutes: 20,
      maxRuntimeMinutes: 360,
    });
    expect(warnings).toEqual([]);
  });

  it('reads each setting from its variable, and leaves out the policy and price', () => {
    const warnings: string[] = [];
    const settings = replaySettingsFromEnvironment(
      {
        IDLE_POLICY: 'adaptive',
        IDLE_MINUTES: '12',
        CHECK_SECONDS: '30',
        IDLE_MIN_MINUTES: '3',
        IDLE_MAX_MINUTES: '8',
        PREWAKE: 'off',
        PREWAKE_MAX_PER_DAY: '2',
        USAGE_RETENTION_DAYS: '7',
        RUNPOD_BOOT_GRACE_MINUTES: '9',
        MAX_RUNTIME_MINUTES: '0',
        RUNPOD_MAX_PRICE_PER_HOUR: '0.5',
      },
      warnings,
    );
    expect(settings).toStrictEqual({
      idleMinutes: 12,
      minMinutes: 3,
      maxMinutes: 8,
      checkSeconds: 30,
      prewake: false,
      prewakeMaxPerDay: 2,
      retentionDays: 7,
      bootGraceMinutes: 9,
      maxRuntimeMinutes: 0,
    });
    expect(warnings).toEqual([]);
  });

  it('keeps the default check interval of a bad CHECK_SECONDS and warns once', () => {
    const warnings: string[] = [];
    expect(replaySettingsFromEnvironment({ CHECK_SECONDS: '0' }, warnings).checkSeconds).toBe(60);
    expect(warnings).toEqual(['CHECK_SECONDS="0" is not an integer in 1..2147483; using 60']);
  });
});
