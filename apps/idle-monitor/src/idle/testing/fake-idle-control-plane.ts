import type { ListedPod, PodActivity, PodObservation, PodStatus } from '@podwarden/policies';
import type { PodActionResult, PodList, RunPodClient } from '@podwarden/runpod-client';
import type { IdleControlPlane } from '../volume-observation';

/** What GET /pods/{id} answers for a pod: a status (with GPUs attached), or a failed read. */
export type ScriptedObservation = PodStatus | 'not-found' | 'unreadable';

/** What POST /pods/{id}/action stop answers. */
export type ScriptedStop = 'ok' | 'refused';

/** One pod as this tick's control plane and proxy see it; a test edits it between ticks. */
export interface ScriptedPod {
  readonly id: string;
  readonly volumeId: string;
  /** Raw status in GET /pods (StopService.stopVolume skips EXITED/TERMINATED without a call). */
  readonly listedStatus: string;
  /** One /metrics scrape; null is any scrape that did not reach vLLM (502 while loading, 404, timeout). */
  readonly metrics: PodActivity | null;
  readonly observation: ScriptedObservation;
  readonly stop: ScriptedStop;
  readonly gpuId: string | null;
  readonly costPerHr: number | null;
}

export const REFUSED_STOP_STATUS = 500;
export const REFUSED_STOP_DETAIL = 'scripted refusal';

/**
 * A scripted RunPod for idle ticks. Each test sets every pod's state for the
 * next tick (metrics, observation, stop answer; the list order is insertion
 * order) and every call is logged in order as it is made: 'list',
 * 'metrics p1', 'observe p1', 'stop p1'. Nothing changes by itself: an
 * accepted stop leaves the pod as scripted until the test says otherwise.
 */
export class FakeIdleControlPlane implements IdleControlPlane {
  readonly isConfigured = true;
  readonly calls: string[] = [];
  /** `${podId}:${port}` per scrape, to show which pod's port was used. */
  readonly scrapedPorts: string[] = [];

  private readonly pods = new Map<string, ScriptedPod>();
  private listUnreadable: string | null = null;

  /** Adds a pod at the end of the list, or edits one already listed (its list position is kept). */
  setPod(id: string, changes: Partial<Omit<ScriptedPod, 'id'>> = {}): this {
    const current: ScriptedPod = this.pods.get(id) ?? {
      id,
      volumeId: 'vol-1',
      listedStatus: 'RUNNING',
      metrics: null,
      observation: 'Running',
      stop: 'ok',
      gpuId: 'NVIDIA L40S',
      costPerHr: 0.86,
    };
    this.pods.set(id, { ...current, ...changes });
    return this;
  }

  removePod(id: string): this {
    this.pods.delete(id);
    return this;
  }

  /** GET /pods fails (5xx, timeout) until `listReadable()`. */
  listFails(reason = 'http 503'): this {
    this.listUnreadable = reason;
    return this;
  }

  listReadable(): this {
    this.listUnreadable = null;
    return this;
  }

  /** The calls since the last take, cleared: one tick's calls. */
  takeCalls(): string[] {
    return this.calls.splice(0, this.calls.length);
  }

  /** StopService takes a RunPodClient but only calls listPods and stopPod, both of which this fake answers. */
  asRunPodClient(): RunPodClient {
    return this as unknown as RunPodClient;
  }

  async listPods(): Promise<PodList> {
    this.calls.push('list');
    if (this.listUnreadable !== null) return { kind: 'unreadable', reason: this.listUnreadable };
    return { kind: 'listed', pods: [...this.pods.values()].map(listed) };
  }

  async getActivity(podId: string, port: number): Promise<PodActivity | null> {
    this.calls.push(`metrics ${podId}`);
    this.scrapedPorts.push(`${podId}:${port}`);
    return this.pods.get(podId)?.metrics ?? null;
  }

  async observePod(podId: string): Promise<PodObservation> {
    this.calls.push(`observe ${podId}`);
    const pod = this.pods.get(podId);
    if (pod === undefined || pod.observation === 'not-found') return { kind: 'not-found', podId };
    if (pod.observation === 'unreadable') return { kind: 'unreadable', podId, reason: 'http 502' };
    return { kind: 'found', podId, status: pod.observation, gpuCount: gpuCountOf(pod.observation) };
  }

  async stopPod(podId: string): Promise<PodActionResult> {
    this.calls.push(`stop ${podId}`);
    const pod = this.pods.get(podId);
    if (pod === undefined) return { ok: false, httpStatus: 404, detail: 'pod not found' };
    return pod.stop === 'ok'
      ? { ok: true, httpStatus: 200, detail: null }
      : { ok: false, httpStatus: REFUSED_STOP_STATUS, detail: REFUSED_STOP_DETAIL };
  }
}

function listed(pod: ScriptedPod): ListedPod {
  return {
    id: pod.id,
    name: `podwarden-${pod.id}`,
    status: pod.listedStatus,
    volumeIds: [pod.volumeId],
    costPerHr: pod.costPerHr,
    gpuId: pod.gpuId,
    createdAt: null,
  };
}

// A GPU stays attached while the pod is up or coming up; a stopped pod has none.
function gpuCountOf(status: PodStatus): number {
  return status === 'Running' || status === 'Starting' || status === 'Provisioning' ? 1 : 0;
}
