import type {
  CreatePodResult,
  GpuCatalogEntry,
  ListedPod,
  PodActivity,
  PodObservation,
} from '@podwarden/policies';
import type { PodActionResult, PodList } from '@podwarden/runpod-client';

export type FakeCall =
  | { readonly method: 'listPods' }
  | { readonly method: 'observePod'; readonly podId: string }
  | { readonly method: 'startPod' | 'stopPod' | 'terminatePod'; readonly podId: string }
  | { readonly method: 'createPod' | 'getCatalog' | 'getActivity' };

/** A listed pod on `volumeId` with the given raw status. */
export function listedPod(id: string, volumeId: string, status: string): ListedPod {
  return {
    id,
    name: `podwarden-${id}`,
    status,
    volumeIds: [volumeId],
    costPerHr: 0.89,
    gpuId: 'NVIDIA A40',
    createdAt: null,
  };
}

/**
 * A scripted stand-in for RunPodClient: answers what the test scripted and
 * records every call, so a test can assert that a path made no RunPod call
 * at all, or exactly one list and one observe per pod.
 */
export class FakeRunPodClient {
  readonly isConfigured = true;
  readonly calls: FakeCall[] = [];

  list: PodList = { kind: 'listed', pods: [] };
  /** Per pod id; a pod with no entry observes as unreadable. */
  readonly observations = new Map<string, PodObservation>();
  /** Per pod id; a pod with no entry stops with 200. */
  readonly stopResults = new Map<string, PodActionResult>();
  /** Delay before a read answers, so concurrent requests overlap. */
  readDelayMs = 0;
  /** When set, the next listPods waits for this promise before answering (one-shot). */
  holdNextList: Promise<void> | null = null;
  /** When set, listPods throws (the real client never should; the gateway must still cope). */
  listThrows = false;

  count(method: FakeCall['method']): number {
    return this.calls.filter((call) => call.method === method).length;
  }

  reset(): void {
    this.calls.length = 0;
    this.list = { kind: 'listed', pods: [] };
    this.observations.clear();
    this.stopResults.clear();
    this.readDelayMs = 0;
    this.holdNextList = null;
    this.listThrows = false;
  }

  /** Lists `pods` on the volume and observes each as given. */
  script(pods: ReadonlyArray<{ listed: ListedPod; observation: PodObservation }>): void {
    this.list = { kind: 'listed', pods: pods.map((pod) => pod.listed) };
    for (const pod of pods) this.observations.set(pod.listed.id, pod.observation);
  }

  async listPods(): Promise<PodList> {
    this.calls.push({ method: 'listPods' });
    const hold = this.holdNextList;
    this.holdNextList = null;
    if (hold) await hold;
    await this.delay();
    if (this.listThrows) throw new Error('scripted list failure');
    return this.list;
  }

  async observePod(podId: string): Promise<PodObservation> {
    this.calls.push({ method: 'observePod', podId });
    await this.delay();
    return this.observations.get(podId) ?? { kind: 'unreadable', podId, reason: 'not scripted' };
  }

  async stopPod(podId: string): Promise<PodActionResult> {
    this.calls.push({ method: 'stopPod', podId });
    return this.stopResults.get(podId) ?? { ok: true, httpStatus: 200, detail: null };
  }

  async startPod(podId: string): Promise<PodActionResult> {
    this.calls.push({ method: 'startPod', podId });
    return { ok: true, httpStatus: 200, detail: null };
  }

  async terminatePod(podId: string): Promise<PodActionResult> {
    this.calls.push({ method: 'terminatePod', podId });
    return { ok: true, httpStatus: 204, detail: null };
  }

  async createPod(): Promise<CreatePodResult> {
    this.calls.push({ method: 'createPod' });
    return { httpStatus: 500, podId: null, retryAfterSeconds: null, detail: 'fake refuses to create' };
  }

  async getCatalog(): Promise<GpuCatalogEntry[]> {
    this.calls.push({ method: 'getCatalog' });
    return [];
  }

  async getActivity(): Promise<PodActivity | null> {
    this.calls.push({ method: 'getActivity' });
    return null;
  }

  proxyUrl(podId: string, port: number): string {
    return `https://${podId}-${port}.proxy.runpod.net`;
  }

  async close(): Promise<void> {}

  private async delay(): Promise<void> {
    if (this.readDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.readDelayMs));
  }
}
