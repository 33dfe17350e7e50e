import { AttachRuntime, PodStatusWord, Timings, VllmBehaviour } from './scenario';
import { VllmProcess } from './vllm-process';
import type { LogScenario } from './pod-logs';

/**
 * A pod's lifecycle as absolute simulated timestamps. Nothing ticks: the
 * status, runtime and proxy routing are derived from these stamps whenever
 * they are asked for, so the simulator needs no timers and a fake clock makes
 * every transition deterministic.
 */
export type ForcedRuntime = 'live' | AttachRuntime;

export type Lifecycle =
  | {
      readonly kind: 'run';
      /** create: PROVISIONING first; start: STARTING first; seed: already at the stamps given. */
      readonly origin: 'create' | 'start' | 'seed';
      readonly startedAt: number;
      readonly startingAt: number;
      readonly runningAt: number;
      readonly attachedAt: number;
      readonly readyAt: number;
    }
  | { readonly kind: 'exited'; readonly since: number }
  | { readonly kind: 'terminated'; readonly since: number; readonly removeAt: number }
  | {
      /** An admin-forced status that holds until the next action (edge tests). */
      readonly kind: 'forced';
      readonly status: PodStatusWord;
      readonly runtime: ForcedRuntime;
      readonly since: number;
    };

export interface SimPod {
  readonly id: string;
  /** Creation order, the tie-break of the 'created' list order. */
  readonly seq: number;
  readonly name: string;
  readonly gpuId: string;
  readonly gpuCount: number;
  readonly costPerHr: number;
  readonly dataCenterId: string;
  readonly templateId: string;
  readonly volumeId: string | null;
  readonly mountPath: string;
  readonly port: number;
  readonly createdAtWall: number;
  readonly clusterId: string | null;
  readonly modelName: string;
  lifecycle: Lifecycle;
  /** The vLLM process of the current run; null while the container is down. */
  vllm: VllmProcess | null;
  behaviour: VllmBehaviour;
  /** Metrics scrapes seen while flapping, to alternate 502 and 200. */
  flapScrapes: number;
  /** The template's image, named by the system log. */
  readonly imageName: string;
  /** The story the pod's boot logs tell (GET /pods/{id}/logs). */
  logScenario: LogScenario;
}

export type RuntimeView =
  | { readonly kind: 'none' }
  | { readonly kind: 'attaching'; readonly shape: AttachRuntime }
  | { readonly kind: 'live'; readonly uptimeSeconds: number };

/** What the pod proxy can reach: nothing (404), a container whose vLLM does not listen yet (502), or vLLM. */
export type Serving = 'not-routing' | 'loading' | 'ready';

export interface PodView {
  readonly status: PodStatusWord;
  readonly runtime: RuntimeView;
  readonly serving: Serving;
  /** False once a terminated pod's removal delay has passed: it is gone from the API. */
  readonly listed: boolean;
}

export function bootLifecycle(origin: 'create' | 'start', at: number, timings: Timings): Lifecycle {
  const startingAt = origin === 'create' ? at + timings.provisioningMs : at;
  const runningAt = startingAt + timings.startingMs;
  const attachedAt = runningAt + timings.gpuAttachMs;
  // The model loads from the network volume once the GPU is attached.
  return {
    kind: 'run',
    origin,
    startedAt: at,
    startingAt,
    runningAt,
    attachedAt,
    readyAt: attachedAt + timings.modelLoadMs,
  };
}

/** A pod seeded already RUNNING: attached at once, serving at once unless the model should load first. */
export function seededRunningLifecycle(at: number, timings: Timings, vllmReady: boolean): Lifecycle {
  return {
    kind: 'run',
    origin: 'seed',
    startedAt: at,
    startingAt: at,
    runningAt: at,
    attachedAt: at,
    readyAt: vllmReady ? at : at + timings.modelLoadMs,
  };
}

/** Uptime is whole seconds since RUNNING, never 0 once the GPU is attached (0 is the attaching shape). */
function uptimeSince(runningAt: number, now: number): number {
  return Math.max(1, Math.floor((now - runningAt) / 1000));
}

export function viewPod(pod: SimPod, now: number, attachRuntime: AttachRuntime): PodView {
  const life = pod.lifecycle;
  switch (life.kind) {
    case 'run': {
      if (now < life.startingAt)
        return { status: 'PROVISIONING', runtime: NO_RUNTIME, serving: 'not-routing', listed: true };
      if (now < life.runningAt)
        return { status: 'STARTING', runtime: NO_RUNTIME, serving: 'not-routing', listed: true };
      const runtime: RuntimeView =
        now < life.attachedAt
          ? { kind: 'attaching', shape: attachRuntime }
          : { kind: 'live', uptimeSeconds: uptimeSince(life.runningAt, now) };
      return { status: 'RUNNING', runtime, serving: now < life.readyAt ? 'loading' : 'ready', listed: true };
    }
    case 'exited':
      return { status: 'EXITED', runtime: NO_RUNTIME, serving: 'not-routing', listed: true };
    case 'terminated':
      return {
        status: 'TERMINATED',
        runtime: NO_RUNTIME,
        serving: 'not-routing',
        listed: now < life.removeAt,
      };
    case 'forced': {
      if (life.status !== 'RUNNING') {
        return { status: life.status, runtime: NO_RUNTIME, serving: 'not-routing', listed: true };
      }
      if (life.runtime === 'live') {
        return {
          status: 'RUNNING',
          runtime: { kind: 'live', uptimeSeconds: uptimeSince(life.since, now) },
          serving: 'ready',
          listed: true,
        };
      }
      // No GPU attached: the container cannot serve.
      return {
        status: 'RUNNING',
        runtime: { kind: 'attaching', shape: life.runtime },
        serving: 'loading',
        listed: true,
      };
    }
  }
}

const NO_RUNTIME: RuntimeView = { kind: 'none' };

/** start applies to a stopped or failed pod; everything else is 409. */
export function startApplies(status: PodStatusWord): boolean {
  return status === 'EXITED' || status === 'ERROR';
}

/** stop applies to anything holding (or about to hold) a GPU. */
export function stopApplies(status: PodStatusWord): boolean {
  return status === 'PROVISIONING' || status === 'STARTING' || status === 'RUNNING' || status === 'ERROR';
}

/**
 * The billing rule's notion of "holding a GPU": from create (PROVISIONING)
 * until EXITED or TERMINATED. ERROR keeps billing — a crash-looping container
 * still reserves its GPU — so a stuck ERROR pod costs money, as it would.
 */
export function isBillableStatus(status: PodStatusWord): boolean {
  return status !== 'EXITED' && status !== 'TERMINATED';
}
