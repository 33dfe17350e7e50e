import type { PodStatus } from '../gateway/pod-status';
import type { WaitState } from './wait-state';

/**
 * What a wait knows at any moment, for the error it may have to end with
 * (timeout, Ctrl-C, a failure): whatever may be billing is named by its ids.
 */
export class WaitTracker {
  attemptId: string | null = null;
  state: WaitState | null = null;
  lastStatus: PodStatus | null = null;

  constructor(readonly name: string) {}

  /**
   * The ids as data. `podId` is the wake's pod once known, else the pod the
   * gateway last showed on the volume: the one to look at if something bills.
   */
  fields(): Record<string, unknown> {
    return {
      name: this.name,
      attemptId: this.state?.attemptId ?? this.attemptId,
      podId: this.state?.podId ?? this.lastStatus?.podId ?? null,
      lastStatus: this.lastStatus?.body ?? null,
    };
  }

  /** A status read after the wait stopped (Ctrl-C before the start answered) may name a wake in flight. */
  learnFromFinalRead(status: PodStatus): void {
    this.lastStatus = status;
    if (this.attemptId === null && this.state === null && status.wake !== null)
      this.attemptId = status.wake.attemptId;
  }
}
