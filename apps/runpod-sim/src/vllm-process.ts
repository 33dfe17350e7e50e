/**
 * One vLLM process: a FIFO queue in front of `maxConcurrency` request slots.
 * Each chat request is scheduled on arrival (start = when a slot frees, end =
 * start + duration), so the gauges and counters at any instant follow from
 * the schedule: running = started and not ended, waiting = arrived and not
 * started, counters = everything ended. A restart is a new process, so the
 * counters start from zero again — exactly what RunPod's stop/start does.
 */
export type FinishReason = 'stop' | 'length' | 'abort';

export const FINISH_REASONS: readonly FinishReason[] = ['stop', 'length', 'abort'];

export interface ChatJob {
  readonly arrival: number;
  readonly start: number;
  readonly end: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly finishReason: FinishReason;
}

export interface VllmCounters {
  readonly success: Readonly<Record<FinishReason, number>>;
  readonly promptTokens: number;
  readonly generationTokens: number;
}

export interface VllmSnapshot {
  readonly running: number;
  readonly waiting: number;
  readonly counters: VllmCounters;
}

/** Completed jobs beyond this many are folded into plain totals to bound memory. */
const MAX_KEPT_JOBS = 1000;

export class VllmProcess {
  private readonly slotsFreeAt: number[];
  private jobs: ChatJob[] = [];
  private folded = { stop: 0, length: 0, abort: 0, promptTokens: 0, generationTokens: 0 };
  /** GET /v1/models answered: vLLM runs no model for it, only its HTTP instrumentator counts it. */
  private modelLists = 0;

  constructor(
    /** Increments on every new process in the simulator, so a restart is visible in the state dump. */
    readonly generation: number,
    /** Simulated time the process came up (the start of the run). */
    readonly startedAt: number,
    /** Wall-clock seconds for the `_created` samples. */
    readonly startedAtWallSeconds: number,
    maxConcurrency: number,
  ) {
    this.slotsFreeAt = new Array<number>(Math.max(1, maxConcurrency)).fill(Number.NEGATIVE_INFINITY);
  }

  enqueue(
    now: number,
    durationMs: number,
    promptTokens: number,
    completionTokens: number,
    finishReason: FinishReason,
  ): ChatJob {
    let slot = 0;
    for (let i = 1; i < this.slotsFreeAt.length; i += 1) {
      if (this.slotsFreeAt[i] < this.slotsFreeAt[slot]) slot = i;
    }
    const start = Math.max(now, this.slotsFreeAt[slot]);
    const job: ChatJob = {
      arrival: now,
      start,
      end: start + Math.max(0, durationMs),
      promptTokens,
      completionTokens,
      finishReason,
    };
    this.slotsFreeAt[slot] = job.end;
    this.jobs.push(job);
    this.foldOldJobs(now);
    return job;
  }

  listModels(): void {
    this.modelLists += 1;
  }

  get modelListsServed(): number {
    return this.modelLists;
  }

  snapshot(now: number): VllmSnapshot {
    let running = 0;
    let waiting = 0;
    const totals = { ...this.folded };
    for (const job of this.jobs) {
      if (job.end <= now) {
        totals[job.finishReason] += 1;
        totals.promptTokens += job.promptTokens;
        totals.generationTokens += job.completionTokens;
      } else if (job.start <= now) {
        running += 1;
      } else if (job.arrival <= now) {
        waiting += 1;
      }
    }
    return {
      running,
      waiting,
      counters: {
        success: { stop: totals.stop, length: totals.length, abort: totals.abort },
        promptTokens: totals.promptTokens,
        generationTokens: totals.generationTokens,
      },
    };
  }

  private foldOldJobs(now: number): void {
    if (this.jobs.length <= MAX_KEPT_JOBS) return;
    const kept: ChatJob[] = [];
    for (const job of this.jobs) {
      if (job.end <= now) {
        this.folded[job.finishReason] += 1;
        this.folded.promptTokens += job.promptTokens;
        this.folded.generationTokens += job.completionTokens;
      } else {
        kept.push(job);
      }
    }
    this.jobs = kept;
  }
}
