import { BillingLedger } from './billing-ledger';
import { ExtraCharge } from './billing-history';
import { LogScenario } from './pod-logs';
import { CreatePlan } from './create-request';
import { JsonRecord, JsonShapeError, readShape, ShapeResult } from './json-reader';
import { ListedEntry, orderListed } from './list-order';
import {
  bootLifecycle,
  ForcedRuntime,
  isBillableStatus,
  PodView,
  seededRunningLifecycle,
  SimPod,
  startApplies,
  stopApplies,
  viewPod,
} from './pod-lifecycle';
import { PodSeed, PodStatusWord, Scenario, VllmBehaviour } from './scenario';
import { randomPodId, RandomSource, seededRandom } from './seeded-random';
import { SimClock } from './sim-clock';
import { VllmProcess } from './vllm-process';
import { podToWire } from './wire-json';

/**
 * The simulated RunPod account: scenario (catalog, volumes, templates,
 * timings), pods, the billing ledger and the balance. Every state change goes
 * through here, so the ledger and the vLLM processes follow the lifecycle.
 */
export type ActionResult = { readonly ok: true } | { readonly ok: false; readonly detail: string };

interface SeedPlan {
  readonly seed: PodSeed;
  readonly id: string | null;
  readonly name: string;
  readonly gpuId: string;
  readonly costPerHr: number;
  readonly volumeId: string | null;
  readonly dataCenterId: string;
  readonly templateId: string;
  readonly modelName: string;
  readonly imageName: string;
  readonly port: number;
  readonly createdAtWall: number | null;
}

const DEFAULT_MODEL = 'Qwen/Qwen2.5-32B-Instruct-AWQ';

export class SimWorld {
  private current: Scenario;
  private readonly pods = new Map<string, SimPod>();
  /** Pods GET /pods does not show yet (a lagging list), until a wall-clock time. */
  private readonly listHiddenUntil = new Map<string, number>();
  private idRandom: RandomSource;
  private listRandom: RandomSource;
  private podSeq = 0;
  private processGeneration = 0;
  readonly ledger = new BillingLedger();
  /** Charges RunPod made beyond the lifecycle (admin-seeded leaks), for the billing history. */
  readonly extraCharges: ExtraCharge[] = [];
  /** The boot-log story of pods created from now on (admin). */
  defaultLogScenario: LogScenario = 'normal';
  private balanceBase: number;
  private spentAtBase = 0;

  constructor(
    private readonly clock: SimClock,
    scenario: Scenario,
  ) {
    this.current = { ...scenario, pods: [] };
    this.idRandom = seededRandom(scenario.seed);
    this.listRandom = seededRandom(scenario.seed + 1);
    this.balanceBase = scenario.balance;
  }

  get scenario(): Scenario {
    return this.current;
  }

  /** Simulated epoch milliseconds. */
  now(): number {
    return this.clock.now();
  }

  /** Wall-clock epoch milliseconds. */
  wall(): number {
    return this.clock.wall();
  }

  get speed(): number {
    return this.clock.speed;
  }

  /** Real milliseconds until simulated time reaches `simAt`. */
  realDelayUntil(simAt: number): number {
    return this.clock.realDelayUntil(simAt);
  }

  /** Back to `scenario`: pods, ledger and randomness start over; seeded pods are placed now. */
  reset(scenario: Scenario): ShapeResult<null> {
    const planned = readShape(() => {
      const seenIds = new Set<string>();
      return scenario.pods.map((seed, i) => {
        const plan = planSeed(seed, scenario, `pods[${i}]`);
        if (plan.id !== null) {
          if (seenIds.has(plan.id)) throw new JsonShapeError(`pods[${i}].id`, `duplicate pod id ${plan.id}`);
          seenIds.add(plan.id);
        }
        return plan;
      });
    });
    if (!planned.ok) return planned;
    this.pods.clear();
    this.listHiddenUntil.clear();
    this.ledger.clear();
    this.extraCharges.length = 0;
    this.defaultLogScenario = 'normal';
    this.current = scenario;
    this.idRandom = seededRandom(scenario.seed);
    this.listRandom = seededRandom(scenario.seed + 1);
    this.podSeq = 0;
    this.clock.setSpeed(scenario.speed);
    this.balanceBase = scenario.balance;
    this.spentAtBase = 0;
    for (const plan of planned.value) this.placeSeed(plan);
    return { ok: true, value: null };
  }

  /** PUT /_sim/config: timings apply to transitions that begin afterwards; speed re-anchors the clock. */
  applyConfig(next: Scenario, balanceGiven: boolean): void {
    if (next.speed !== this.clock.speed) this.clock.setSpeed(next.speed);
    this.current = { ...next, pods: this.current.pods };
    if (balanceGiven) {
      this.balanceBase = next.balance;
      this.spentAtBase = this.ledger.totalUsd(this.now());
    }
  }

  /** The configured balance minus what the ledger has charged since it was set. */
  balance(): number {
    const spent = this.ledger.totalUsd(this.now()) - this.spentAtBase;
    return Math.round((this.balanceBase - spent) * 1_000_000) / 1_000_000;
  }

  view(pod: SimPod): PodView {
    return viewPod(pod, this.now(), this.current.wire.attachRuntime);
  }

  find(podId: string): SimPod | undefined {
    this.sweep();
    return this.pods.get(podId);
  }

  listed(): ListedEntry[] {
    this.sweep();
    const wall = this.wall();
    const entries = [...this.pods.values()]
      .filter((pod) => (this.listHiddenUntil.get(pod.id) ?? 0) <= wall)
      .map((pod) => ({ pod, view: this.view(pod) }));
    return orderListed(entries, this.current.listOrder, this.listRandom);
  }

  /** The list lags: the pod is observable by id at once, listed only from `untilWall` on. */
  hideFromList(podId: string, untilWall: number): void {
    this.listHiddenUntil.set(podId, untilWall);
  }

  create(plan: CreatePlan): SimPod {
    const now = this.now();
    const lifecycle = bootLifecycle('create', now, this.current.timings);
    const pod: SimPod = {
      id: this.freshId(),
      seq: this.nextSeq(),
      name: plan.name,
      gpuId: plan.gpu.id,
      gpuCount: plan.gpuCount,
      costPerHr: plan.costPerHr,
      dataCenterId: plan.dataCenterId,
      templateId: plan.template.id,
      volumeId: plan.volume?.id ?? null,
      mountPath: plan.mountPath,
      port: plan.template.port,
      createdAtWall: this.clock.wall(),
      clusterId: null,
      modelName: plan.template.modelName,
      lifecycle,
      vllm: this.newProcess(now),
      // A boot whose logs tell of a pull, a loop or a crash never serves.
      behaviour: this.defaultLogScenario === 'normal' ? 'normal' : 'never-ready',
      flapScrapes: 0,
      imageName: plan.template.imageName,
      logScenario: this.defaultLogScenario,
    };
    this.pods.set(pod.id, pod);
    this.ledger.open(pod.id, pod.gpuId, pod.costPerHr, now);
    return pod;
  }

  /** Same id, new vLLM process: counters start from zero again. */
  start(pod: SimPod): ActionResult {
    const status = this.view(pod).status;
    if (!startApplies(status))
      return { ok: false, detail: `pod is ${status}; start applies to EXITED or ERROR pods` };
    const now = this.now();
    pod.lifecycle = bootLifecycle('start', now, this.current.timings);
    pod.vllm = this.newProcess(now);
    // A dead process is replaced by a fresh one; other behaviours belong to the pod and persist.
    if (pod.behaviour === 'dead') pod.behaviour = 'normal';
    pod.flapScrapes = 0;
    this.ledger.open(pod.id, pod.gpuId, pod.costPerHr, now);
    return { ok: true };
  }

  stop(pod: SimPod): ActionResult {
    const status = this.view(pod).status;
    if (!stopApplies(status))
      return { ok: false, detail: `pod is ${status}; stop applies to a pod that is up` };
    const now = this.now();
    pod.lifecycle = { kind: 'exited', since: now };
    pod.vllm = null;
    this.ledger.close(pod.id, now);
    return { ok: true };
  }

  terminate(pod: SimPod): ActionResult {
    if (pod.clusterId !== null) {
      return { ok: false, detail: `pod belongs to cluster ${pod.clusterId}; terminate the cluster instead` };
    }
    if (pod.lifecycle.kind === 'terminated') return { ok: true };
    const now = this.now();
    pod.lifecycle = { kind: 'terminated', since: now, removeAt: now + this.current.timings.terminateMs };
    pod.vllm = null;
    this.ledger.close(pod.id, now);
    return { ok: true };
  }

  /** Admin: place a pod directly in a status (e.g. EXITED on our volume, or a stranger's RUNNING pod). */
  seed(seed: PodSeed): ShapeResult<SimPod> {
    const planned = readShape(() => planSeed(seed, this.current, 'pod'));
    if (!planned.ok) return planned;
    if (planned.value.id !== null && this.find(planned.value.id) !== undefined) {
      return { ok: false, error: `pod.id: a pod with id ${planned.value.id} already exists` };
    }
    return { ok: true, value: this.placeSeed(planned.value) };
  }

  /** Admin: hold a status until the next action, e.g. RUNNING with runtime null forever, or ERROR. */
  force(pod: SimPod, status: PodStatusWord, runtime: ForcedRuntime): void {
    const now = this.now();
    pod.lifecycle = { kind: 'forced', status, runtime, since: now };
    if (status !== 'RUNNING') pod.vllm = null;
    else if (pod.vllm === null) pod.vllm = this.newProcess(now);
    if (isBillableStatus(status)) this.ledger.open(pod.id, pod.gpuId, pod.costPerHr, now);
    else this.ledger.close(pod.id, now);
  }

  /** A boot-log story for this pod; any but normal also keeps its model from ever serving. */
  setLogScenario(pod: SimPod, scenario: LogScenario): void {
    pod.logScenario = scenario;
    if (scenario !== 'normal') this.setBehaviour(pod, 'never-ready');
  }

  setBehaviour(pod: SimPod, behaviour: VllmBehaviour): void {
    pod.behaviour = behaviour;
    pod.flapScrapes = 0;
  }

  dump(): JsonRecord {
    const now = this.now();
    this.sweep();
    const { pods: _seeds, ...config } = this.current;
    return {
      now: { sim: now, wall: new Date(this.clock.wall()).toISOString(), speed: this.clock.speed },
      balance: this.balance(),
      billingTotalUsd: this.ledger.totalUsd(now),
      config,
      pods: [...this.pods.values()].map((pod) => {
        const view = this.view(pod);
        return {
          ...podToWire(pod, view, this.current.wire),
          internal: {
            seq: pod.seq,
            listed: view.listed,
            serving: view.serving,
            lifecycle: pod.lifecycle,
            behaviour: pod.behaviour,
            port: pod.port,
            modelName: pod.modelName,
            clusterId: pod.clusterId,
            vllm:
              pod.vllm === null
                ? null
                : {
                    generation: pod.vllm.generation,
                    startedAt: pod.vllm.startedAt,
                    ...pod.vllm.snapshot(now),
                  },
          },
        };
      }),
    };
  }

  private placeSeed(plan: SeedPlan): SimPod {
    const now = this.now();
    const { seed } = plan;
    const timings = this.current.timings;
    const pod: SimPod = {
      id: plan.id ?? this.freshId(),
      seq: this.nextSeq(),
      name: plan.name,
      gpuId: plan.gpuId,
      gpuCount: seed.gpuCount,
      costPerHr: plan.costPerHr,
      dataCenterId: plan.dataCenterId,
      templateId: plan.templateId,
      volumeId: plan.volumeId,
      mountPath: '/workspace',
      port: plan.port,
      createdAtWall: plan.createdAtWall ?? this.clock.wall(),
      clusterId: seed.clusterId,
      modelName: plan.modelName,
      lifecycle: { kind: 'exited', since: now },
      vllm: null,
      behaviour: seed.behaviour,
      flapScrapes: 0,
      imageName: plan.imageName,
      logScenario: 'normal',
    };
    switch (seed.status) {
      case 'PROVISIONING':
        pod.lifecycle = bootLifecycle('create', now, timings);
        break;
      case 'STARTING':
        pod.lifecycle = bootLifecycle('start', now, timings);
        break;
      case 'RUNNING':
        pod.lifecycle = seededRunningLifecycle(now, timings, seed.vllmReady);
        break;
      case 'EXITED':
        break;
      case 'ERROR':
      case 'TERMINATED':
        // Held until an action: a seeded TERMINATED pod stays listed, like a stuck one.
        pod.lifecycle = { kind: 'forced', status: seed.status, runtime: 'null', since: now };
        break;
    }
    if (seed.status === 'PROVISIONING' || seed.status === 'STARTING' || seed.status === 'RUNNING') {
      pod.vllm = this.newProcess(now);
    }
    this.pods.set(pod.id, pod);
    // Seeded pods bill from the moment they are seeded: the simulator did not exist before.
    if (isBillableStatus(seed.status)) this.ledger.open(pod.id, pod.gpuId, pod.costPerHr, now);
    return pod;
  }

  private newProcess(now: number): VllmProcess {
    this.processGeneration += 1;
    return new VllmProcess(
      this.processGeneration,
      now,
      this.clock.wall() / 1000,
      this.current.vllm.maxConcurrency,
    );
  }

  private freshId(): string {
    let id = randomPodId(this.idRandom);
    while (this.pods.has(id)) id = randomPodId(this.idRandom);
    return id;
  }

  private nextSeq(): number {
    this.podSeq += 1;
    return this.podSeq;
  }

  /** A terminated pod leaves the API once its removal delay has passed. */
  private sweep(): void {
    const now = this.now();
    for (const [id, pod] of this.pods) {
      if (pod.lifecycle.kind === 'terminated' && now >= pod.lifecycle.removeAt) this.pods.delete(id);
    }
  }
}

/** Fills a seed's defaults from the scenario; refuses what cannot be priced or placed. */
function planSeed(seed: PodSeed, scenario: Scenario, path: string): SeedPlan {
  const volumeId = seed.volumeId === undefined ? (scenario.volumes[0]?.id ?? null) : seed.volumeId;
  const volume = volumeId === null ? undefined : scenario.volumes.find((v) => v.id === volumeId);
  if (volumeId !== null && volume === undefined && seed.dataCenterId === null) {
    throw new JsonShapeError(
      `${path}.volumeId`,
      `volume ${volumeId} is not in the scenario; give dataCenterId`,
    );
  }
  const dataCenterId = seed.dataCenterId ?? volume?.dataCenterId ?? 'EU-RO-1';
  const gpuId = seed.gpuId ?? defaultSeedGpu(scenario, dataCenterId);
  if (gpuId === null)
    throw new JsonShapeError(`${path}.gpuId`, 'the catalog is empty; give gpuId and costPerHr');
  const gpu = scenario.catalog.find((g) => g.id === gpuId);
  const unitPrice = gpu?.price.secure ?? gpu?.price.community ?? null;
  if (seed.costPerHr === null && unitPrice === null) {
    throw new JsonShapeError(`${path}.costPerHr`, `GPU ${gpuId} has no catalog price; give costPerHr`);
  }
  const templateId = seed.templateId ?? scenario.templates[0]?.id ?? 'tpl-unknown';
  const template = scenario.templates.find((t) => t.id === templateId);
  return {
    seed,
    id: seed.id,
    name: seed.name ?? `seeded-${seed.status.toLowerCase()}`,
    gpuId,
    costPerHr: seed.costPerHr ?? Math.round((unitPrice ?? 0) * seed.gpuCount * 1_000_000) / 1_000_000,
    volumeId,
    dataCenterId,
    templateId,
    modelName: template?.modelName ?? DEFAULT_MODEL,
    imageName: template?.imageName ?? 'vllm/vllm-openai:latest',
    port: seed.port ?? template?.port ?? 8000,
    createdAtWall: seed.createdAt === null ? null : Date.parse(seed.createdAt),
  };
}

function defaultSeedGpu(scenario: Scenario, dataCenterId: string): string | null {
  const offered = scenario.catalog.find(
    (gpu) =>
      gpu.price.secure !== null &&
      gpu.dataCenters.some((dc) => dc.id === dataCenterId && dc.availability !== 'NONE'),
  );
  return offered?.id ?? scenario.catalog[0]?.id ?? null;
}
