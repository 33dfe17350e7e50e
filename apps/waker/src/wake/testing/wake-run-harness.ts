import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import { WakeRun } from '../wake-service';
import type { WakeResult } from '../wake-result';
import { capturingLogger, type CapturedLogs } from './capturing-logger';
import type { FakeControlPlane } from './fake-control-plane';
import { fixedClock } from './fixed-clock';
import { InstantSleep } from './instant-sleep';
import { RecordingActionLog } from './recording-action-log';
import { RecordingProgressReporter } from './recording-progress-reporter';
import { testConfig, testPod } from './test-config';

export interface WakeRunHarness {
  readonly runpod: FakeControlPlane;
  readonly config: PodwardenConfig;
  readonly pod: PodConfig;
  readonly actions: RecordingActionLog;
  readonly progress: RecordingProgressReporter;
  readonly sleeper: InstantSleep;
  readonly logs: CapturedLogs;
  run(): Promise<WakeResult>;
}

/** One WakeRun wired to the scripted control plane and recording fakes; every delay is instant. */
export function wakeRunHarness(
  runpod: FakeControlPlane,
  options: { env?: Readonly<Record<string, string | undefined>>; pod?: Partial<PodConfig> } = {},
): WakeRunHarness {
  const config = testConfig(options.env);
  const pod = testPod(config, options.pod);
  const actions = new RecordingActionLog(runpod);
  const progress = new RecordingProgressReporter();
  const sleeper = new InstantSleep(runpod);
  const logs = capturingLogger();
  return {
    runpod,
    config,
    pod,
    actions,
    progress,
    sleeper,
    logs,
    run: () =>
      new WakeRun(
        { config, client: runpod, actions, logger: logs.logger, sleep: sleeper.sleep, now: fixedClock() },
        pod,
        progress,
      ).run(),
  };
}
