import type { ListedPod, PodList } from '@podwarden/policies';
import type { WakeDiagnostics } from '@podwarden/platform';
import type { PodActionResult } from '@podwarden/runpod-client';
import { providerFailed, refused, type WakeResult } from './wake-result';

/** What one wake has learned and done so far; every step reads and adds to it. */
export class WakeRunState {
  candidatesConsidered = 0;
  lastProviderStatus: number | null = null;
  /** Set once a call RunPod may bill for went out; after that no ending may claim "nothing billed". */
  private billableIssued = false;
  private readonly startAttempted = new Set<string>();
  private readonly startedByUs = new Set<string>();
  /** The newest list entry of every pod the wake has seen listed: what the termination guard judges on. */
  private readonly listed = new Map<string, ListedPod>();

  diagnostics(): WakeDiagnostics {
    return { candidatesConsidered: this.candidatesConsidered, lastProviderStatus: this.lastProviderStatus };
  }

  /**
   * A fail-closed guard declining: a refusal only while nothing billable went out; after an accepted start,
   * or a create that may have placed a pod, it ends the wake as a provider failure, so the history never
   * says Refused for a wake that billed.
   */
  declined(message: string): WakeResult {
    return this.billableIssued
      ? providerFailed(message, this.diagnostics())
      : refused(message, this.diagnostics());
  }

  noteListing(list: PodList): void {
    if (list.kind !== 'listed') return;
    for (const pod of list.pods) this.listed.set(pod.id, pod);
  }

  /** The pod last listed under this name (a create's requested name), if any. */
  listedByName(name: string): ListedPod | undefined {
    return [...this.listed.values()].find((pod) => pod.name === name);
  }

  listedPod(podId: string): ListedPod | undefined {
    return this.listed.get(podId);
  }

  /** The volumes a pod mounted when last listed; none when the wake never saw it listed. */
  volumesOf(podId: string): readonly string[] {
    return this.listed.get(podId)?.volumeIds ?? [];
  }

  /** The pod's price when last listed; null when the wake never saw it listed with one. */
  listedPrice(podId: string): number | null {
    return this.listed.get(podId)?.costPerHr ?? null;
  }

  wasStartAttempted(podId: string): boolean {
    return this.startAttempted.has(podId);
  }

  wasStartedByUs(podId: string): boolean {
    return this.startedByUs.has(podId);
  }

  noteStart(podId: string, result: PodActionResult): void {
    this.startAttempted.add(podId);
    if (result.ok) {
      this.startedByUs.add(podId);
      this.billableIssued = true;
    } else {
      this.lastProviderStatus = result.httpStatus;
    }
  }

  noteCreate(httpStatus: number): void {
    this.lastProviderStatus = httpStatus;
    if (mayHavePlacedPod(httpStatus)) this.billableIssued = true;
  }
}

/** A 2xx placed a pod; a 5xx or a transport failure may have. Only a 4xx refusal surely placed nothing. */
function mayHavePlacedPod(httpStatus: number): boolean {
  return httpStatus < 400 || httpStatus >= 500;
}
