import { Inject, Injectable } from '@nestjs/common';
import type { PodConfig, PodwardenConfig } from '@podwarden/policies';
import {
  CONFIG,
  LOGGER,
  UsageStore,
  orWarn,
  withinTimeout,
  type AppLogger,
  type VolumeStopResult,
} from '@podwarden/platform';

/** The usage record's trigger for a stop an operator asked for (the gateway's route, the CLI's `stop`). */
export const MANUAL_STOP_TRIGGER = 'manual';

/** A stop to write to the usage record: only when RunPod accepted a stop of a pod that was up. */
export function manualStopMark(result: VolumeStopResult, at: number): { at: number; trigger: string } | null {
  if (result.kind !== 'stopped') return null;
  return result.pods.some((pod) => pod.called && pod.ok) ? { at, trigger: MANUAL_STOP_TRIGGER } : null;
}

/**
 * Writes an operator's stop to the pod's usage record, beside the idle
 * monitor's own stops, so the record (and GET …/usage) shows every stop.
 * Never rejects: the stop is done whatever becomes of this write.
 */
@Injectable()
export class ManualStopUsage {
  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
    private readonly usage: UsageStore,
  ) {}

  async record(pod: PodConfig, result: VolumeStopResult, at: number = Date.now()): Promise<void> {
    const mark = manualStopMark(result, at);
    if (mark === null) return;
    await orWarn(
      () =>
        withinTimeout(
          this.usage.recordStop(pod.name, mark),
          this.config.tuning.redisReadTimeoutMs,
          'usage stop write',
        ),
      {
        logger: this.logger,
        fields: { pod: pod.name },
        message: 'manual stop not written to the usage record; the stop itself is done',
        fallback: () => undefined,
      },
    );
  }
}
