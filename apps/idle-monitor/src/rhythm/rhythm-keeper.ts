import { Inject, Injectable } from '@nestjs/common';
import { readySampleOfWake } from '../idle/ready-sample';
import type { LatestWake, ReadyEdge } from '../idle/tick-status-effects';
import {
  learnRhythm,
  nextPrewake,
  rhythmDue,
  rhythmSettingsFor,
  windowInForce,
  type IdleState,
  type IdleWindow,
  type PodConfig,
  type PodRhythm,
  type PodSignal,
  type ProxyActivity,
  type StopReason,
} from '@podwarden/policies';
import {
  PREWAKE_REQUESTER,
  errorMessage,
  type PrewakeRun,
  type RhythmSnapshot,
  type RhythmStore,
  type UsageStore,
  type WakeHistory,
  boundedRead,
} from '@podwarden/platform';
import { PrewakeRuns, type PrewakeRunsDependencies } from './prewake-runs';
import { RhythmKeeperWiring } from './rhythm-keeper-wiring';

const DAY_MS = 86_400_000;

/** Enqueues a wake through the `wake` queue (its deduplication is the singleton gate); answers the attempt id. */
export type PrewakeEnqueuer = (pod: PodConfig) => Promise<string>;

/** Pre-wakes counted by what became of them. */
export type PrewakeOutcome = 'fired' | 'hit' | 'miss';

/** The pre-wakes' dependencies, plus the usage record, the snapshot and the wake history it reads. */
export interface RhythmKeeperDependencies extends Omit<PrewakeRunsDependencies, 'rhythms'> {
  readonly usage: Pick<
    UsageStore,
    'recordUse' | 'recordBoot' | 'recordStop' | 'useCount' | 'usesSince' | 'read'
  >;
  readonly rhythms: Pick<RhythmStore, 'snapshot' | 'saveSnapshot' | 'prewakeRun'> &
    PrewakeRunsDependencies['rhythms'];
  readonly history: Pick<WakeHistory, 'recent'>;
}

/** The window a tick applies, and what it was read from (reused after the tick). */
export interface TickRhythm {
  readonly minutes: number;
  readonly window: IdleWindow;
  /** Null for a fixed pod (nothing is read) or when Redis could not be read. */
  readonly snapshot: RhythmSnapshot | null;
  readonly run: PrewakeRun | null;
  readonly used: boolean;
}

/** What the tick saw and did, for the usage record and the pre-wakes. */
export interface TickFacts {
  readonly now: number;
  readonly before: IdleState;
  readonly after: IdleState;
  /** The volume's signal from the scrape alone, and after the proxies' traffic was added. */
  readonly scraped: PodSignal;
  readonly signal: PodSignal;
  /** The proxies' traffic as read this tick; null when unreadable. */
  readonly proxy: ProxyActivity | null;
  /** The ready edge crossed, with the wake record the tick read there (null: read it here). */
  readonly ready: (ReadyEdge & { readonly wake: LatestWake | null }) | null;
  readonly stop: StopReason | null;
  readonly stopAccepted: boolean | null;
}

function fixedWindow(pod: PodConfig): IdleWindow {
  return { minutes: pod.idleMinutes, policy: 'fixed', basis: `fixed window of ${pod.idleMinutes} min` };
}

function clock(minuteOfDay: number): string {
  const minutes = ((Math.round(minuteOfDay) % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * The adaptive policy around each pod's tick (under its lock): the window learned from the usage record
 * before, the record and pre-wakes after. Best effort: Redis trouble means the fixed window (the longest
 * the policy may choose), never a failed or delayed stop.
 */
@Injectable()
export class RhythmKeeper {
  private readonly prewakes: PrewakeRuns;

  constructor(@Inject(RhythmKeeperWiring) private readonly deps: RhythmKeeperDependencies) {
    this.prewakes = new PrewakeRuns(deps);
  }

  async windowFor(pod: PodConfig, now: number): Promise<TickRhythm> {
    const fixed = {
      minutes: pod.idleMinutes,
      window: fixedWindow(pod),
      snapshot: null,
      run: null,
      used: false,
    };
    if (pod.idlePolicy !== 'adaptive') return fixed;
    try {
      return await this.within(this.learn(pod, now), 'rhythm read');
    } catch (error) {
      this.deps.logger.warn(
        { pod: pod.name, err: errorMessage(error) },
        'usage record unreadable; the fixed window applies this tick',
      );
      return fixed;
    }
  }

  async afterTick(pod: PodConfig, current: TickRhythm, facts: TickFacts): Promise<void> {
    try {
      await this.record(pod, current, facts);
      if (pod.idlePolicy === 'adaptive') await this.prewakes.follow(pod, current, facts);
    } catch (error) {
      this.deps.logger.warn({ pod: pod.name, err: errorMessage(error) }, 'usage record not written');
    }
  }

  private settings(pod: PodConfig) {
    return rhythmSettingsFor(pod, this.deps.config.rhythm, this.deps.config.checkSeconds);
  }

  private async learn(pod: PodConfig, now: number): Promise<TickRhythm> {
    const { usage, rhythms } = this.deps;
    const settings = this.settings(pod);
    const [previous, uses, run] = await Promise.all([
      rhythms.snapshot(pod.name),
      usage.useCount(pod.name),
      rhythms.prewakeRun(pod.name),
    ]);
    let rhythm: PodRhythm;
    let mark = previous === null ? null : { at: previous.learnedAt, uses: previous.uses };
    if (previous === null || rhythmDue(mark, now, uses)) {
      const record = await usage.read(pod.name, now - settings.retentionDays * DAY_MS);
      rhythm = learnRhythm(settings, record, now);
      mark = { at: now, uses };
    } else {
      rhythm = previous.rhythm;
    }
    const used = run !== null && (run.hit || (await usage.usesSince(pod.name, run.at)) > 0);
    const minutes = windowInForce(rhythm, run?.slot ?? null, used, settings.minMinutes);
    const window: IdleWindow =
      run !== null && !used
        ? {
            minutes,
            policy: 'adaptive',
            basis: `pre-woken for the ${run.slot.dayClass} session at about ${clock(run.slot.untilMinute - settings.minMinutes)} UTC; stops after ${minutes} min unused`,
          }
        : rhythm.window;
    const next = this.deps.config.rhythm.prewake ? nextPrewake(rhythm.prewakes, now) : null;
    const snapshot: RhythmSnapshot = {
      learnedAt: mark!.at,
      uses: mark!.uses,
      rhythm,
      inForce: window,
      nextPrewakeAt: next?.at ?? null,
    };
    await rhythms.saveSnapshot(pod.name, snapshot);
    if (previous?.inForce.minutes !== window.minutes || previous?.inForce.basis !== window.basis) {
      await this.deps.events.publish(pod.name, 'idle-window', { ...window });
    }
    return { minutes, window, snapshot, run, used };
  }

  /** Uses the proxies did not record (a Busy tick with no proxy traffic in its interval), boots and stops. */
  private async record(pod: PodConfig, current: TickRhythm, facts: TickFacts): Promise<void> {
    const { usage, config } = this.deps;
    const { now, before, proxy } = facts;
    const since = before.lastTickAt ?? now - config.checkSeconds * 1000;
    const proxySawIt =
      proxy === null || proxy.inFlight > 0 || (proxy.lastEndedAt !== null && proxy.lastEndedAt > since);
    // The ready tick reads Busy only because it seeds the counters' baseline: not a use.
    const used = facts.scraped === 'Busy' && before.phase === 'Ready' && facts.after.phase === 'Ready';
    if (used && !proxySawIt) await usage.recordUse(pod.name, { start: since, end: now });
    if (facts.ready !== null) await usage.recordBoot(pod.name, await this.bootOf(pod, current, facts));
    if (facts.stop !== null && facts.stopAccepted === true) {
      await usage.recordStop(pod.name, { at: now, trigger: facts.stop });
    }
  }

  /** The boot from the wake that brought the pod up (its request time), else from the first up observation. */
  private async bootOf(pod: PodConfig, current: TickRhythm, facts: TickFacts) {
    const ready = facts.ready!;
    const [attempt] =
      ready.wake !== null
        ? [ready.wake.attempt]
        : await this.within(this.deps.history.recent(pod.name, 1), 'wake history read');
    const sample = readySampleOfWake(attempt, ready);
    const wakeAt = sample !== null ? ready.at - sample.readyAfterMs : (facts.after.bootStartedAt ?? ready.at);
    const prewake =
      sample !== null && attempt !== undefined
        ? attempt.requestedBy === PREWAKE_REQUESTER
        : current.run !== null;
    return { wakeAt, readyAt: ready.at, gpuId: ready.gpuId, pricePerHour: ready.pricePerHour, prewake };
  }

  private within<T>(work: Promise<T>, what: string): Promise<T> {
    return boundedRead(this.deps.config, work, what);
  }
}
