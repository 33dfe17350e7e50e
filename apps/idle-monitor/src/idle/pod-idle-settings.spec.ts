import { testConfig } from '@podwarden/testing';
import { settingsOf } from './pod-idle-settings';

const CONFIG = testConfig({
  CHECK_SECONDS: '30',
  IDLE_MINUTES: '15',
  RUNPOD_BOOT_GRACE_MINUTES: '10',
  MAX_RUNTIME_MINUTES: '120',
});
const POD = CONFIG.pods[0];

describe('settingsOf', () => {
  it("the pod's own minutes and the monitor's tick interval, in ticks and ms", () => {
    expect(settingsOf(CONFIG, POD)).toEqual({
      requiredIdleStreak: 30,
      requiredBootGraceTicks: 20,
      maxRuntimeMs: 7_200_000,
      checkSeconds: 30,
    });
  });

  it('a window in force (adaptive) replaces only the idle minutes', () => {
    expect(settingsOf(CONFIG, POD, 4)).toEqual({ ...settingsOf(CONFIG, POD), requiredIdleStreak: 8 });
  });

  it("another pod's own minutes are its own", () => {
    const other = { ...POD, idleMinutes: 5, bootGraceMinutes: 0, maxRuntimeMinutes: 0 };
    expect(settingsOf(CONFIG, other)).toEqual({
      requiredIdleStreak: 10,
      requiredBootGraceTicks: 0,
      maxRuntimeMs: 0,
      checkSeconds: 30,
    });
  });
});
