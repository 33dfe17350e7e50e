import type { CreatePodResult, GpuCatalogEntry, PodList, PodObservation } from '@podwarden/policies';
import type { CreatePodRequest, PodActionResult } from '@podwarden/runpod-client';
import { cancellationOf } from './job-cancellation';
import type { WakeControlPlane } from './wake-dependencies';

/**
 * The control plane as one wake sees it: every call carries the job's
 * AbortSignal (the real client stops a request in flight with it), and once
 * the job is cancelled no further call is issued at all.
 */
export class AbortableControlPlane {
  constructor(
    private readonly client: WakeControlPlane,
    private readonly signal?: AbortSignal,
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
    return this.call(() => this.client.startPod(podId, this.signal));
  }

  createPod(request: CreatePodRequest): Promise<CreatePodResult> {
    return this.call(() => this.client.createPod(request, this.signal));
  }

  terminatePod(podId: string): Promise<PodActionResult> {
    return this.call(() => this.client.terminatePod(podId, this.signal));
  }

  getCatalog(): Promise<GpuCatalogEntry[]> {
    return this.call(() => this.client.getCatalog(this.signal));
  }

  private async call<T>(issue: () => Promise<T>): Promise<T> {
    if (this.signal?.aborted) throw cancellationOf(this.signal);
    return issue();
  }
}
