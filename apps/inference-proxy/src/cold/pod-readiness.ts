import { Inject, Injectable } from '@nestjs/common';
import {
  lookupVolume,
  proxyUrlFor,
  rankPods,
  type IdlePhase,
  type PodConfig,
  type PodwardenConfig,
} from '@podwarden/policies';
import type { RunPodClient } from '@podwarden/runpod-client';
import { CONFIG, IdleStateStore, RUNPOD_CLIENT, boundedRead } from '@podwarden/platform';

export type Readiness =
  | { readonly kind: 'ready'; readonly baseUrl: string }
  | { readonly kind: 'cold'; readonly phase: IdlePhase }
  /** Ready by the idle state, but RunPod could not be read to find the pod's address: no wake, retry soon. */
  | { readonly kind: 'unresolved'; readonly reason: string };

interface Endpoint {
  readonly readySince: number;
  readonly baseUrl: string;
}

/**
 * Whether a pod's model is ready, from the idle monitor's state in Redis (the `readySince` GET reports),
 * with no RunPod polling here. The serving pod's address is looked up once per boot and shared by its
 * requests.
 */
@Injectable()
export class PodReadiness {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly lookups = new Map<string, Promise<Readiness>>();
  /** Boots (by readySince) whose pod answered "not serving", and until when that verdict stands. */
  private readonly notServing = new Map<string, { readySince: number; until: number }>();

  constructor(
    @Inject(CONFIG) private readonly config: PodwardenConfig,
    @Inject(RUNPOD_CLIENT) private readonly client: RunPodClient,
    private readonly idleStates: IdleStateStore,
  ) {}

  /** Throws when Redis does not answer in time: unknown readiness is neither ready nor cold. */
  async read(pod: PodConfig): Promise<Readiness> {
    const record = await boundedRead(this.config, this.idleStates.load(pod.name), 'idle state read');
    const { phase, readySince } = record.state;
    if (phase !== 'Ready' || readySince === null) return { kind: 'cold', phase };
    const key = pod.name.toLowerCase();
    const marked = this.notServing.get(key);
    if (marked !== undefined && marked.readySince === readySince && Date.now() < marked.until) {
      return { kind: 'cold', phase: 'Booting' };
    }
    const known = this.endpoints.get(key);
    if (known !== undefined && known.readySince === readySince) {
      return { kind: 'ready', baseUrl: known.baseUrl };
    }
    const running = this.lookups.get(key);
    if (running !== undefined) return running;
    const lookup = this.lookUp(pod, readySince).finally(() => this.lookups.delete(key));
    this.lookups.set(key, lookup);
    return lookup;
  }

  /** After a forward could not reach the pod: the next request looks its address up again. */
  forget(pod: PodConfig): void {
    this.endpoints.delete(pod.name.toLowerCase());
  }

  /**
   * The pod's edge said it is not serving although the idle state (up to one
   * tick old) says Ready: requests are cold for this boot until the idle
   * monitor records a new one, or for two ticks (a blip must not hold them longer).
   */
  async markNotServing(pod: PodConfig): Promise<void> {
    this.forget(pod);
    const { readySince } = (await this.idleStates.load(pod.name)).state;
    if (readySince === null) return;
    const until = Date.now() + 2 * this.config.checkSeconds * 1000;
    this.notServing.set(pod.name.toLowerCase(), { readySince, until });
  }

  private async lookUp(pod: PodConfig, readySince: number): Promise<Readiness> {
    const lookup = lookupVolume(await this.client.listPods(), pod.volumeId);
    if (lookup.kind === 'unreadable') return { kind: 'unresolved', reason: lookup.reason };
    // Ready in Redis but nothing on the volume: stopped since the last tick, so it is cold.
    if (lookup.kind === 'not-found') return { kind: 'cold', phase: 'Down' };
    const observed = await Promise.all(
      lookup.podIds.map(async (podId) => ({ podId, observation: await this.client.observePod(podId) })),
    );
    const serving = rankPods(observed);
    const isServing =
      serving?.observation.kind === 'found' &&
      serving.observation.status === 'Running' &&
      serving.observation.gpuCount >= 1;
    if (!isServing) return { kind: 'cold', phase: 'Down' };
    const baseUrl = proxyUrlFor(this.config.runpod.proxyUrlTemplate, serving.podId, pod.podPort);
    this.endpoints.set(pod.name.toLowerCase(), { readySince, baseUrl });
    return { kind: 'ready', baseUrl };
  }
}
