import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import { FakeRunPod, captureLogs, type CapturedLogs } from '@podwarden/testing';
import { WakeRun } from '../wake-run';
import type { WakeResult } from '../wake-result';
import { WakeRunContext, type WakeRunFence } from '../wake-run-context';
import { fixedClock } from './fixed-clock';
import { InstantSleep } from './instant-sleep';
import { MemoryIntents } from './memory-intents';
import { newWakeDependencies } from './new-wake-run';
import { RecordingActionLog } from './recording-action-log';
import { RecordingProgressReporter } from './recording-progress-reporter';
import { testConfig, testPod } from './test-config';

export interface WakeRunHarness {
  readonly runpod: FakeRunPod;
  readonly config: PodwardenConfig;
  readonly pod: PodConfig;
  readonly actions: RecordingActionLog;
  readonly progress: RecordingProgressReporter;
  readonly sleeper: InstantSleep;
  readonly logs: CapturedLogs;
  readonly intents: MemoryIntents;
  run(signal?: AbortSignal, fence?: WakeRunFence): Promise<WakeResult>;
  /** A fresh run's context on the same fakes, to drive one step directly. */
  context(signal?: AbortSignal, fence?: WakeRunFence): WakeRunContext;
}

/** One WakeRun wired to the scripted fake RunPod and recording fakes; every delay is instant. */
export function wakeRunHarness(
  runpod: FakeRunPod,
  options: {
    env?: Readonly<Record<string, string | undefined>>;
    pod?: Partial<PodConfig>;
    intents?: MemoryIntents;
  } = {},
): WakeRunHarness {
  const config = testConfig(options.env);
  const pod = testPod(config, options.pod);

  const progress = new RecordingProgressReporter();
  const sleeper = new InstantSleep(runpod);
  const logs = captureLogs();
  const intents = options.intents ?? new MemoryIntents();
  const actions = new RecordingActionLog(runpod, intents);
  const deps = newWakeDependencies({
    config,
    client: runpod,
    actions,
    intents,
    logger: logs.logger,
    sleep: sleeper.sleep,
    now: fixedClock(),
  });
  return {
    runpod,
    config,
    pod,
    actions,
    progress,
    sleeper,
    logs,
    intents,
    run: (signal, fence) => new WakeRun(deps, pod, progress, signal, fence).run(),
    context: (signal, fence) => new WakeRunContext(deps, pod, progress, signal, fence),
  };
}

/** The fake every wake scenario starts from: it answers only what the scenario scripts, any other call throws. */
export function scriptedRunPod(): FakeRunPod {
  return new FakeRunPod().scriptedOnly();
}
