import type { CreatePodResult, GpuCatalogEntry, PodObservation } from '@podwarden/policies';
import type { CreatePodRequest, PodActionResult, PodList } from '@podwarden/runpod-client';
import type { WakeControlPlane } from '../wake-service';
import { ScriptedAnswers, UnexpectedCallError, type ScriptedAnswer } from '@podwarden/testing';

/**
 * A hand-written RunPod control plane for orchestration tests. Each method
 * answers from its own script and logs the call in `calls` as it is made
 * ('list', 'observe p1', 'start p1', 'catalog', 'create NVIDIA L40S',
 * 'terminate p1'), so a test asserts the exact sequence and a billable call
 * (start / create / terminate) cannot hide on a path that must not issue one.
 * `events` holds the same calls interleaved with notes from other fakes (the
 * instant sleep writes 'sleep 5000'), for tests about what happens between calls.
 */
export class FakeControlPlane implements WakeControlPlane {
  isConfigured = true;
  readonly calls: string[] = [];
  readonly events: string[] = [];
  readonly createRequests: CreatePodRequest[] = [];

  private readonly list = new ScriptedAnswers<void, PodList>();
  private readonly observations = new Map<string, ScriptedAnswers<string, PodObservation>>();
  private readonly starts = new ScriptedAnswers<string, PodActionResult>();
  private readonly creates = new ScriptedAnswers<CreatePodRequest, CreatePodResult>();
  private readonly terminations = new ScriptedAnswers<string, PodActionResult>();
  private readonly catalogs = new ScriptedAnswers<void, GpuCatalogEntry[]>();

  unconfigured(): this {
    this.isConfigured = false;
    return this;
  }

  onList(...answers: Array<ScriptedAnswer<void, PodList>>): this {
    this.list.push(...answers);
    return this;
  }

  alwaysList(answer: ScriptedAnswer<void, PodList>): this {
    this.list.setFallback(answer);
    return this;
  }

  onObserve(podId: string, ...answers: Array<ScriptedAnswer<string, PodObservation>>): this {
    this.observationsOf(podId).push(...answers);
    return this;
  }

  alwaysObserve(podId: string, answer: ScriptedAnswer<string, PodObservation>): this {
    this.observationsOf(podId).setFallback(answer);
    return this;
  }

  onStart(...answers: Array<ScriptedAnswer<string, PodActionResult>>): this {
    this.starts.push(...answers);
    return this;
  }

  onCreate(...answers: Array<ScriptedAnswer<CreatePodRequest, CreatePodResult>>): this {
    this.creates.push(...answers);
    return this;
  }

  onTerminate(...answers: Array<ScriptedAnswer<string, PodActionResult>>): this {
    this.terminations.push(...answers);
    return this;
  }

  onCatalog(...answers: Array<ScriptedAnswer<void, GpuCatalogEntry[]>>): this {
    this.catalogs.push(...answers);
    return this;
  }

  /** Puts a non-RunPod event (a sleep, a record) on the shared timeline. */
  note(event: string): void {
    this.events.push(event);
  }

  /** The billable calls made, in order. */
  get billableCalls(): string[] {
    return this.calls.filter((call) => /^(start|create|terminate) /.test(call));
  }

  async listPods(): Promise<PodList> {
    return this.list.answer(undefined, this.log('list'));
  }

  async observePod(podId: string): Promise<PodObservation> {
    const call = this.log(`observe ${podId}`);
    const script = this.observations.get(podId);
    if (script === undefined) throw new UnexpectedCallError(call);
    return script.answer(podId, call);
  }

  async startPod(podId: string): Promise<PodActionResult> {
    return this.starts.answer(podId, this.log(`start ${podId}`));
  }

  async createPod(req: CreatePodRequest): Promise<CreatePodResult> {
    this.createRequests.push(req);
    return this.creates.answer(req, this.log(`create ${req.gpuId}`));
  }

  async terminatePod(podId: string): Promise<PodActionResult> {
    return this.terminations.answer(podId, this.log(`terminate ${podId}`));
  }

  async getCatalog(): Promise<GpuCatalogEntry[]> {
    return this.catalogs.answer(undefined, this.log('catalog'));
  }

  private observationsOf(podId: string): ScriptedAnswers<string, PodObservation> {
    let script = this.observations.get(podId);
    if (script === undefined) {
      script = new ScriptedAnswers<string, PodObservation>();
      this.observations.set(podId, script);
    }
    return script;
  }

  // Logged synchronously, before any await, so parallel observes keep their call order.
  private log(call: string): string {
    this.calls.push(call);
    this.events.push(call);
    return call;
  }
}
