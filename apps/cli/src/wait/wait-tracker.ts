import type { PodStatus } from '../gateway/pod-status';
import type { WaitState } from './wait-state';

/**
 * What a start knows at any moment, for the error it may have to end with
 * (timeout, Ctrl-C, a failure): whatever may be billing is named by its ids.
 */
export class WaitTracker {
  attemptId: string | null = null;
  state: WaitState | null = null;
  lastStatus: PodStatus | null = null;
  private recordedPodId: string | null = null;

  constructor(readonly name: string) {}

  /**
   * The ids as data. `podId` is the wake's pod once known, else the pod the
   * gateway last showed on the volume: the one to look at if something bills.
   */
  fields(): Record<string, unknown> {
    return {
      name: this.name,
      attemptId: this.state?.attemptId ?? this.attemptId,
      podId: this.state?.podId ?? this.recordedPodId ?? this.lastStatus?.podId ?? null,
      lastStatus: this.lastStatus?.body ?? null,
    };
  }

  /** A status read after the start ended early: the wake's record, or the wake in flight, names it. */
  learnFromFinalRead(status: PodStatus): void {
    this.lastStatus = status;
    if (this.attemptId === null && this.state === null && status.wake !== null)
      this.attemptId = status.wake.attemptId;
    const record = status.lastWake;
    if (record !== null && record.attemptId === (this.state?.attemptId ?? this.attemptId))
      this.recordedPodId = record.podId;
  }
}
