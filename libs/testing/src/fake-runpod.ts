import type {
  CreatePodResult,
  GpuCatalogEntry,
  ListedPod,
  PodActivity,
  PodObservation,
  PodStatus,
  RealisedContract,
} from '@podwarden/policies';
import type { CreatePodRequest, PodActionResult, PodList, RunPodClient } from '@podwarden/runpod-client';
import { ScriptedAnswers, UnexpectedCallError, type ScriptedAnswer } from './scripted-answers';

/** What GET /pods/{id} answers for a pod of the fake's world. */
export type FakeObservation = PodStatus | 'not-found' | 'unreadable';

/** How a write on a pod of the world is answered. */
export type FakeAnswer = 'ok' | 'refused';

/** One pod of the fake's world, as the control plane and the proxy see it; a test edits it between steps. */
export interface FakePod {
  readonly id: string;
  readonly volumeId: string | null;
  readonly name: string;
  /** Raw status in GET /pods (the stop service skips EXITED/TERMINATED without a call). */
  readonly listedStatus: string;
  readonly observation: FakeObservation;
  /** GPUs attached when observed found; by default 1 while up or coming up, else 0. */
  readonly gpuCount?: number;
  /** One /metrics scrape; null is any scrape that did not reach vLLM (502 while loading, 404, timeout). */
  readonly metrics: PodActivity | null;
  readonly gpuId: string | null;
  readonly costPerHr: number | null;
  readonly createdAt: string | null;
  readonly start: FakeAnswer;
  readonly stop: FakeAnswer;
  readonly terminate: FakeAnswer;
}

export const FAKE_REFUSED_STATUS = 500;
export const FAKE_REFUSED_DETAIL = 'scripted refusal';

/** The RunPod calls any app makes; RunPodClient satisfies it and so does the fake. */
export type RunPodControlPlane = Pick<
  RunPodClient,
  | 'isConfigured'
  | 'listPods'
  | 'observePod'
  | 'startPod'
  | 'stopPod'
  | 'terminatePod'
  | 'createPod'
  | 'getCatalog'
  | 'getActivity'
  | 'proxyUrl'
  | 'close'
>;

/**
 * The one fake RunPod control plane every app's unit specs use. Two ways to
 * say what RunPod answers, which combine:
 *
 * - a world of pods (`setPod`), answered consistently by every read and
 *   write, for specs that reason in states (the idle tick, the status route);
 * - scripts per call (`onList`, `onObserve`, `onCreate`, …), each answer used
 *   once and ahead of the world, for specs that reason in sequences (the wake).
 *
 * Every call is logged as it is made ('list', 'observe p1', 'start p1',
 * 'stop p1', 'terminate p1', 'create NVIDIA L40S', 'catalog', 'metrics p1'),
 * so a spec asserts the exact calls and a billable one cannot hide on a path
 * that must not make it. A create nobody scripted throws: it is the one call
 * that places a pod, so a spec must plan for it.
 */
export class FakeRunPod implements RunPodControlPlane {
  isConfigured = true;
  readonly calls: string[] = [];
  /** The calls interleaved with notes from other fakes ('sleep 5000', 'record Create p1 ok=true'). */
  readonly events: string[] = [];
  readonly createRequests: CreatePodRequest[] = [];
  /** `${podId}:${port}` per scrape, to show which port was used. */
  readonly scrapedPorts: string[] = [];
  /** Delay before a read answers, so concurrent readers overlap. */
  readDelayMs = 0;
  /** When set, the next list waits for this promise before answering (one-shot). */
  holdNextList: Promise<void> | null = null;
  /** When set, listPods throws (the real client never should; callers must still cope). */
  listThrows = false;
  /**
   * Opt-in: a call made with an already-aborted signal rejects with the
   * signal's reason and is not logged, as the real client rejects without
   * sending anything; so a spec proves a caller's signal reached the call.
   */
  honoursSignals = false;
  /** Set by `scriptedOnly()`: a call no script answers throws instead of reading the world. */
  private worldless = false;

  private readonly world = new Map<string, FakePod>();
  private listUnreadable: string | null = null;
  private readonly lists = new ScriptedAnswers<void, PodList>();
  private readonly observations = new Map<string, ScriptedAnswers<string, PodObservation>>();
  private readonly activities = new Map<string, ScriptedAnswers<string, PodActivity | null>>();
  private readonly starts = new ScriptedAnswers<string, PodActionResult>();
  private readonly stops = new ScriptedAnswers<string, PodActionResult>();
  private readonly terminations = new ScriptedAnswers<string, PodActionResult>();
  private readonly creates = new ScriptedAnswers<CreatePodRequest, CreatePodResult>();
  private readonly catalogs = new ScriptedAnswers<void, GpuCatalogEntry[]>();
  /** What each pod the fake created was asked to be: a faithful RunPod reports exactly that. */
  private readonly placed = new Map<string, RealisedContract>();

  // ---- the world -------------------------------------------------------------------------

  /** Adds a pod at the end of the list, or edits one already listed (its list position is kept). */
  setPod(id: string, changes: Partial<Omit<FakePod, 'id'>> = {}): this {
    const current: FakePod = this.world.get(id) ?? {
      id,
      volumeId: 'vol-1',
      name: `podwarden-${id}`,
      listedStatus: 'RUNNING',
      observation: 'Running',
      metrics: null,
      gpuId: 'NVIDIA L40S',
      costPerHr: 0.86,
      createdAt: null,
      start: 'ok',
      stop: 'ok',
      terminate: 'ok',
    };
    this.world.set(id, { ...current, ...changes });
    return this;
  }

  removePod(id: string): this {
    this.world.delete(id);
    return this;
  }

  pod(id: string): FakePod | undefined {
    return this.world.get(id);
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

  /** No API key: the real client answers every call with its unconfigured shape; callers must not call at all. */
  unconfigured(): this {
    this.isConfigured = false;
    return this;
  }

  /**
   * Answers only what the scenario scripted: any call without a script throws
   * UnexpectedCallError instead of reading the world, for specs that reason in
   * exact sequences (the wake) and want an unplanned call to fail loudly.
   */
  scriptedOnly(): this {
    this.worldless = true;
    return this;
  }

  // ---- scripts ---------------------------------------------------------------------------

  onList(...answers: Array<ScriptedAnswer<void, PodList>>): this {
    this.lists.push(...answers);
    return this;
  }

  alwaysList(answer: ScriptedAnswer<void, PodList>): this {
    this.lists.setFallback(answer);
    return this;
  }

  onObserve(podId: string, ...answers: Array<ScriptedAnswer<string, PodObservation>>): this {
    scriptOf(this.observations, podId).push(...answers);
    return this;
  }

  alwaysObserve(podId: string, answer: ScriptedAnswer<string, PodObservation>): this {
    scriptOf(this.observations, podId).setFallback(answer);
    return this;
  }

  onActivity(podId: string, ...answers: Array<ScriptedAnswer<string, PodActivity | null>>): this {
    scriptOf(this.activities, podId).push(...answers);
    return this;
  }

  onStart(...answers: Array<ScriptedAnswer<string, PodActionResult>>): this {
    this.starts.push(...answers);
    return this;
  }

  onStop(...answers: Array<ScriptedAnswer<string, PodActionResult>>): this {
    this.stops.push(...answers);
    return this;
  }

  onTerminate(...answers: Array<ScriptedAnswer<string, PodActionResult>>): this {
    this.terminations.push(...answers);
    return this;
  }

  onCreate(...answers: Array<ScriptedAnswer<CreatePodRequest, CreatePodResult>>): this {
    this.creates.push(...answers);
    return this;
  }

  onCatalog(...answers: Array<ScriptedAnswer<void, GpuCatalogEntry[]>>): this {
    this.catalogs.push(...answers);
    return this;
  }

  alwaysCatalog(answer: ScriptedAnswer<void, GpuCatalogEntry[]>): this {
    this.catalogs.setFallback(answer);
    return this;
  }

  // ---- reading what happened -------------------------------------------------------------

  /** Calls whose verb is `verb` ('list', 'observe', 'stop', …). */
  count(verb: string): number {
    return this.calls.filter((call) => call === verb || call.startsWith(`${verb} `)).length;
  }

  /** The calls since the last take, cleared: one step's calls. */
  takeCalls(): string[] {
    return this.calls.splice(0, this.calls.length);
  }

  /** The calls RunPod may bill for, in order. */
  get billableCalls(): string[] {
    return this.calls.filter((call) => /^(start|stop|create|terminate) /.test(call));
  }

  /** Puts a non-RunPod event (a sleep, a record) on the shared timeline. */
  note(event: string): void {
    this.events.push(event);
  }

  /** Forgets the calls, the scripts and the world. */
  reset(): void {
    this.calls.length = 0;
    this.events.length = 0;
    this.createRequests.length = 0;
    this.placed.clear();
    this.scrapedPorts.length = 0;
    this.world.clear();
    this.observations.clear();
    this.activities.clear();
    for (const script of [
      this.lists,
      this.starts,
      this.stops,
      this.terminations,
      this.creates,
      this.catalogs,
    ] as Array<ScriptedAnswers<never, unknown>>) {
      script.clear();
    }
    this.listUnreadable = null;
    this.readDelayMs = 0;
    this.holdNextList = null;
    this.listThrows = false;
    this.honoursSignals = false;
    this.worldless = false;
    this.isConfigured = true;
  }

  // ---- the client surface ----------------------------------------------------------------

  async listPods(signal?: AbortSignal): Promise<PodList> {
    this.refuseIfAborted(signal);
    const call = this.log('list');
    const hold = this.holdNextList;
    this.holdNextList = null;
    if (hold) await hold;
    await this.readDelay();
    if (this.listThrows) throw new Error('scripted list failure');
    if (this.lists.hasAnswer) return this.lists.answer(undefined, call);
    this.unscripted(call);
    if (this.listUnreadable !== null) return { kind: 'unreadable', reason: this.listUnreadable };
    return { kind: 'listed', pods: [...this.world.values()].map(listedOf) };
  }

  async observePod(podId: string, signal?: AbortSignal): Promise<PodObservation> {
    this.refuseIfAborted(signal);
    const call = this.log(`observe ${podId}`);
    await this.readDelay();
    const script = this.observations.get(podId);
    if (script?.hasAnswer) return this.withRealised(await script.answer(podId, call));
    this.unscripted(call);
    return this.withRealised(observationOf(podId, this.world.get(podId)));
  }

  async getActivity(podId: string, port: number, signal?: AbortSignal): Promise<PodActivity | null> {
    this.refuseIfAborted(signal);
    const call = this.log(`metrics ${podId}`);
    this.scrapedPorts.push(`${podId}:${port}`);
    const script = this.activities.get(podId);
    if (script?.hasAnswer) return script.answer(podId, call);
    this.unscripted(call);
    return this.world.get(podId)?.metrics ?? null;
  }

  async startPod(podId: string, signal?: AbortSignal): Promise<PodActionResult> {
    this.refuseIfAborted(signal);
    const call = this.log(`start ${podId}`);
    if (this.starts.hasAnswer) return this.starts.answer(podId, call);
    this.unscripted(call);
    return actionOf(this.world.get(podId)?.start, 200);
  }

  async stopPod(podId: string, signal?: AbortSignal): Promise<PodActionResult> {
    this.refuseIfAborted(signal);
    const call = this.log(`stop ${podId}`);
    if (this.stops.hasAnswer) return this.stops.answer(podId, call);
    this.unscripted(call);
    return actionOf(this.world.get(podId)?.stop, 200);
  }

  async terminatePod(podId: string, signal?: AbortSignal): Promise<PodActionResult> {
    this.refuseIfAborted(signal);
    const call = this.log(`terminate ${podId}`);
    if (this.terminations.hasAnswer) return this.terminations.answer(podId, call);
    this.unscripted(call);
    return actionOf(this.world.get(podId)?.terminate, 204);
  }

  async createPod(request: CreatePodRequest, signal?: AbortSignal): Promise<CreatePodResult> {
    this.refuseIfAborted(signal);
    this.createRequests.push(request);
    const call = this.log(`create ${request.gpuId}`);
    if (!this.creates.hasAnswer) throw new UnexpectedCallError(call);
    const answer = await this.creates.answer(request, call);
    if (answer.podId !== null) this.placed.set(answer.podId, placedBy(request));
    return answer;
  }

  async getCatalog(signal?: AbortSignal): Promise<GpuCatalogEntry[]> {
    this.refuseIfAborted(signal);
    const call = this.log('catalog');
    if (this.catalogs.hasAnswer) return this.catalogs.answer(undefined, call);
    this.unscripted(call);
    return [];
  }

  proxyUrl(podId: string, port: number): string {
    return `https://${podId}-${port}.proxy.runpod.net`;
  }

  async close(): Promise<void> {}

  /** For code typed on the whole client (the stop service); the fake answers every method it calls. */
  asRunPodClient(): RunPodClient {
    return this as unknown as RunPodClient;
  }

  /**
   * A pod the fake created reads as exactly what was asked for, unless the
   * script says what was realised: so a spec scripts only the unfaithful case.
   */
  private withRealised(observation: PodObservation): PodObservation {
    if (observation.kind !== 'found' || observation.realised !== undefined) return observation;
    const realised = this.placed.get(observation.podId);
    return realised === undefined ? observation : { ...observation, realised };
  }

  private refuseIfAborted(signal: AbortSignal | undefined): void {
    if (this.honoursSignals && signal?.aborted) throw signal.reason;
  }

  // Logged synchronously, before any await, so parallel calls keep their order.
  private log(call: string): string {
    this.calls.push(call);
    this.events.push(call);
    return call;
  }

  private unscripted(call: string): void {
    if (this.worldless) throw new UnexpectedCallError(call);
  }

  private async readDelay(): Promise<void> {
    if (this.readDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.readDelayMs));
  }
}

function scriptOf<R>(
  scripts: Map<string, ScriptedAnswers<string, R>>,
  podId: string,
): ScriptedAnswers<string, R> {
  let script = scripts.get(podId);
  if (script === undefined) {
    script = new ScriptedAnswers<string, R>();
    scripts.set(podId, script);
  }
  return script;
}

function placedBy(request: CreatePodRequest): RealisedContract {
  return {
    volumeIds: [request.volumeId],
    dataCenterId: request.dataCenterId,
    gpuId: request.gpuId,
    costPerHr: null,
  };
}

function listedOf(pod: FakePod): ListedPod {
  return {
    id: pod.id,
    name: pod.name,
    status: pod.listedStatus,
    volumeIds: pod.volumeId === null ? [] : [pod.volumeId],
    costPerHr: pod.costPerHr,
    gpuId: pod.gpuId,
    createdAt: pod.createdAt,
  };
}

function observationOf(podId: string, pod: FakePod | undefined): PodObservation {
  if (pod === undefined || pod.observation === 'not-found') return { kind: 'not-found', podId };
  if (pod.observation === 'unreadable') return { kind: 'unreadable', podId, reason: 'http 502' };
  return {
    kind: 'found',
    podId,
    status: pod.observation,
    gpuCount: pod.gpuCount ?? gpuCountOf(pod.observation),
  };
}

// A GPU stays attached while the pod is up or coming up; a stopped pod has none.
function gpuCountOf(status: PodStatus): number {
  return status === 'Running' || status === 'Starting' || status === 'Provisioning' ? 1 : 0;
}

function actionOf(answer: FakeAnswer | undefined, okStatus: number): PodActionResult {
  if (answer === undefined) return { ok: false, httpStatus: 404, detail: 'pod not found' };
  return answer === 'ok'
    ? { ok: true, httpStatus: okStatus, detail: null }
    : { ok: false, httpStatus: FAKE_REFUSED_STATUS, detail: FAKE_REFUSED_DETAIL };
}
