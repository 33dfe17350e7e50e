import type { CreatePodResult, GpuCatalogEntry, PodList, PodObservation } from '@podwarden/policies';
import type { CreatePodRequest, PodActionResult } from '@podwarden/runpod-client';
import { cancellationOf } from './job-cancellation';
import type { WakeControlPlane } from './wake-dependencies';

/** The run's right to make a billable call, checked right before each one (the fenced wake gate). */
export interface BillableFence {
  assertHeld(): Promise<void>;
}

/**
 * The control plane as one wake sees it: every call carries the run's
 * AbortSignal (the real client stops a request in flight with it), once it
 * is aborted no further call is issued at all, and every billable call (start,
 * create, terminate) is preceded by an atomic check that the run still holds
 * its volume's gate. A write in flight carries only the job's own signal: a
 * lost fence must not cut a create's answer off and leave its outcome unknown.
 */
export class AbortableControlPlane {
  constructor(
    private readonly client: WakeControlPlane,
    private readonly signal?: AbortSignal,
    private readonly fence?: BillableFence,
    private readonly writeSignal: AbortSignal | undefined = signal,
  ) {}

  get isConfigured(): boolean {
    return this.client.isConfigured;
  }

  listPods(): Promise<PodList> {
    return this.call(() => this.client.listPods(this.signal));
  }

  observePod(podId: string): Promise<PodObservation> {
    return this.call(() => this.client.observePod(podId, this.signal));
  }

  startPod(podId: string): Promise<PodActionResult> {
    return this.write(() => this.client.startPod(podId, this.writeSignal));
  }

  createPod(request: CreatePodRequest): Promise<CreatePodResult> {
    return this.write(() => this.client.createPod(request, this.writeSignal));
  }

  terminatePod(podId: string): Promise<PodActionResult> {
    return this.write(() => this.client.terminatePod(podId, this.writeSignal));
  }

  getCatalog(): Promise<GpuCatalogEntry[]> {
    return this.call(() => this.client.getCatalog(this.signal));
  }

  /** Throws (and calls nothing) when the run was cancelled or no longer holds its gate. */
  async assertMayWrite(): Promise<void> {
    if (this.signal?.aborted) throw cancellationOf(this.signal);
    await this.fence?.assertHeld();
  }

  private async call<T>(issue: () => Promise<T>): Promise<T> {
    if (this.signal?.aborted) throw cancellationOf(this.signal);
    return issue();
  }

  private async write<T>(issue: () => Promise<T>): Promise<T> {
    await this.assertMayWrite();
    return issue();
  }
}
