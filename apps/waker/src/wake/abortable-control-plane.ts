import type { CreatePodResult, GpuCatalogEntry, PodList, PodObservation } from '@podwarden/policies';
import type { CreatePodRequest, PodActionResult } from '@podwarden/runpod-client';
import { cancellationOf } from './job-cancellation';
import type { WakeControlPlane } from './wake-dependencies';

/** The run's right to make a billable call, checked right before each one (the fenced wake gate). */
export interface BillableFence {
  assertHeld(): Promise<void>;
}

/**
 * The control plane as one wake sees it: every call carries the run's AbortSignal, none is issued once it
 * is aborted, and each billable call first checks atomically that the run still holds the volume's gate.
 * A write in flight has only the job's signal: a lost fence must not leave a create's outcome unknown.
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
