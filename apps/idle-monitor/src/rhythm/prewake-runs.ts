import {
  fromMicros,
  nextPrewake,
  type PodConfig,
  type PodRhythm,
  type PodwardenConfig,
  type PrewakeSlot,
} from '@podwarden/policies';
import {
  type AppLogger,
  type BudgetLedger,
  type PodEventSink,
  type PrewakeRun,
  type RhythmSnapshot,
  type RhythmStore,
  boundedRead,
} from '@podwarden/platform';
import type { PrewakeEnqueuer, PrewakeOutcome, TickFacts, TickRhythm } from './rhythm-keeper';

export interface PrewakeRunsDependencies {
  readonly config: PodwardenConfig;
  readonly rhythms: Pick<RhythmStore, 'savePrewakeRun' | 'endPrewakeRun' | 'takePrewake'>;
  readonly enqueue: PrewakeEnqueuer;
  readonly ledger: Pick<BudgetLedger, 'figures'>;
  readonly events: PodEventSink;
  readonly countPrewake: (pod: string, outcome: PrewakeOutcome) => void;
  readonly logger: AppLogger;
}

/** A pod's pre-wakes after each of its adaptive ticks: the run it is up for, and the next one due. */
export class PrewakeRuns {
  constructor(private readonly deps: PrewakeRunsDependencies) {}

  /** Scores the pre-wake the pod is up for (hit or miss), ends it with the run, and fires the next one due. */
  async follow(pod: PodConfig, current: TickRhythm, facts: TickFacts): Promise<void> {
    const { rhythms } = this.deps;
    let run = current.run;
    if (run !== null && current.used && !run.hit) {
      run = { ...run, hit: true };
      await rhythms.savePrewakeRun(pod.name, run);
      await this.prewakeEvent(pod, 'hit', run);
    }
    if (run !== null && this.runEnded(pod, run, facts)) {
      if (!run.hit) await this.prewakeEvent(pod, 'miss', run);
      await rhythms.endPrewakeRun(pod.name);
      run = null;
    }
    const down = facts.after.phase === 'Down' && facts.signal === 'NotRunning' && facts.stop === null;
    if (run === null && down && current.snapshot !== null)
      await this.maybePrewake(pod, current.snapshot, facts.now);
  }

  /** Its pod was stopped or seen down after being up, or the wake never brought it up within the boot grace. */
  private runEnded(pod: PodConfig, run: PrewakeRun, facts: TickFacts): boolean {
    if (facts.stopAccepted === true) return true;
    if (facts.signal === 'NotRunning' && facts.before.phase !== 'Down') return true;
    const graceMs = (pod.bootGraceMinutes || 20) * 60_000 + 2 * this.deps.config.checkSeconds * 1000;
    return facts.after.phase === 'Down' && facts.now - run.at > graceMs;
  }

  private async maybePrewake(pod: PodConfig, snapshot: RhythmSnapshot, now: number): Promise<void> {
    const { config, rhythms, logger } = this.deps;
    if (!config.rhythm.prewake) return;
    const tickMs = config.checkSeconds * 1000;
    const due = nextPrewake(snapshot.rhythm.prewakes, now - tickMs);
    if (due === null || due.at > now) return;
    if (await this.overBudget(pod, snapshot.rhythm, due.slot)) {
      logger.info({ pod: pod.name }, `pre-wake of ${pod.name} skipped: it would go past the daily budget`);
      return;
    }
    if (!(await rhythms.takePrewake(pod.name, now, config.rhythm.prewakeMaxPerDay))) {
      logger.info({ pod: pod.name }, `pre-wake of ${pod.name} skipped: PREWAKE_MAX_PER_DAY reached`);
      return;
    }
    const attemptId = await this.deps.enqueue(pod);
    const run: PrewakeRun = { at: now, slot: due.slot, attemptId, hit: false };
    await rhythms.savePrewakeRun(pod.name, run);
    logger.info(
      { pod: pod.name, attemptId, hitRate: due.slot.hitRate },
      `pre-waking ${pod.name} for its ${due.slot.dayClass} session (job ${attemptId})`,
    );
    await this.prewakeEvent(pod, 'fired', run);
  }

  /** A pre-wake that would bill past the day's budget is not asked for (the wake's reservation refuses it anyway). */
  private async overBudget(pod: PodConfig, rhythm: PodRhythm, slot: PrewakeSlot): Promise<boolean> {
    const { config, ledger } = this.deps;
    if (config.dailyBudgetUsd === null) return false;
    const figures = await this.within(ledger.figures(Date.now()), 'budget ledger read');
    const boot = rhythm.bootMinutes ?? 3;
    const minutes = boot + Math.max(slot.untilMinute - slot.wakeMinute, 0);
    const worstUsd = (pod.maxPricePerHour * minutes) / 60;
    return fromMicros(figures.spentMicros + figures.reservedMicros) + worstUsd > config.dailyBudgetUsd;
  }

  private async prewakeEvent(pod: PodConfig, outcome: PrewakeOutcome, run: PrewakeRun): Promise<void> {
    this.deps.countPrewake(pod.name, outcome);
    await this.deps.events.publish(pod.name, 'prewake', {
      outcome,
      attemptId: run.attemptId,
      prewokeAt: new Date(run.at).toISOString(),
      dayClass: run.slot.dayClass,
    });
  }

  private within<T>(work: Promise<T>, what: string): Promise<T> {
    return boundedRead(this.deps.config, work, what);
  }
}
