import type { PodStatus } from '../domain/pod';

/** One past wake's time from request to model-ready, and the GPU it booted on. */
export interface ReadySample {
  readonly attemptId: string;
  readonly gpuId: string | null;
  readonly readyAfterMs: number;
}

/** Per-GPU history is used only once it has this many samples; below it, every GPU's. */
export const MIN_SAMPLES_PER_GPU = 5;

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function sameGpu(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
}

/** The median time-to-ready: of this GPU's wakes when there are enough, else of all wakes; null without any. */
export function medianReadyAfterMs(samples: readonly ReadySample[], gpuId: string | null): number | null {
  const onGpu = samples.filter((sample) => sameGpu(sample.gpuId, gpuId));
  const basis = onGpu.length >= MIN_SAMPLES_PER_GPU ? onGpu : samples;
  return median(basis.map((sample) => sample.readyAfterMs));
}

/** What GET knows about a wake or boot under way. */
export interface BootFacts {
  /** The in-flight wake's request time (epoch ms), or null when no wake runs. */
  readonly wakeRequestedAt: number | null;
  /** The newest completed wake, when there is one. */
  readonly lastWake: {
    readonly requestedAt: number;
    readonly wakeOutcome: string;
    readonly podId: string | null;
    readonly gpuId: string | null;
  } | null;
  /** The reported pod and its status (null when no pod was read). */
  readonly podId: string | null;
  readonly status: PodStatus | null;
  readonly readySince: number | null;
}

export interface BootUnderWay {
  readonly startedAt: number;
  readonly gpuId: string | null;
}

const BOOTING: ReadonlySet<PodStatus | null> = new Set(['Provisioning', 'Starting', 'Running']);
const BROUGHT_UP: ReadonlySet<string> = new Set(['Started', 'Created']);

/**
 * A wake in flight, or a pod a wake started or created that is not ready yet: when it began and
 * on which GPU. Null when nothing is booting (ready, down, or never woken by us).
 */
export function bootUnderWay(facts: BootFacts): BootUnderWay | null {
  if (facts.readySince !== null) return null;
  if (facts.wakeRequestedAt !== null) {
    return { startedAt: facts.wakeRequestedAt, gpuId: facts.lastWake?.gpuId ?? null };
  }
  const last = facts.lastWake;
  if (last === null || !BROUGHT_UP.has(last.wakeOutcome) || !BOOTING.has(facts.status)) return null;
  if (last.podId === null || last.podId !== facts.podId) return null;
  return { startedAt: last.requestedAt, gpuId: last.gpuId };
}

/** When the model should be ready (epoch ms): the boot's start plus the median; null without history. */
export function expectedReadyAt(boot: BootUnderWay | null, samples: readonly ReadySample[]): number | null {
  if (boot === null) return null;
  const typical = medianReadyAfterMs(samples, boot.gpuId);
  return typical === null ? null : boot.startedAt + typical;
}

/** Time-to-ready longer than this is not a boot to learn from (a pod left half up, a lost record). */
export const MAX_READY_SAMPLE_MS = 3 * 60 * 60 * 1000;

/** The newest wake attempt as the idle monitor sees it when a pod first answers as ready. */
export interface ReadyAttempt {
  readonly attemptId: string;
  readonly requestedAt: number;
  /** Null while the wake is still in flight. */
  readonly wakeOutcome: string | null;
  readonly podId: string | null;
  readonly gpuId: string | null;
}

/**
 * The sample a ready edge records: only for a wake that started or created the pod now ready
 * (or one still in flight), with a plausible positive duration.
 */
export function readySampleOf(
  attempt: ReadyAttempt | null,
  ready: { readonly podId: string | null; readonly at: number; readonly gpuId: string | null },
): ReadySample | null {
  if (attempt === null) return null;
  if (attempt.wakeOutcome !== null && !BROUGHT_UP.has(attempt.wakeOutcome)) return null;
  if (attempt.podId !== null && ready.podId !== null && attempt.podId !== ready.podId) return null;
  const readyAfterMs = ready.at - attempt.requestedAt;
  if (readyAfterMs <= 0 || readyAfterMs > MAX_READY_SAMPLE_MS) return null;
  return { attemptId: attempt.attemptId, gpuId: ready.gpuId ?? attempt.gpuId, readyAfterMs };
}
