import { idleGaps, sessionStarts } from './idle-gaps';
import { chooseIdleWindow, type IdleWindow, type IdleWindowSettings } from './idle-window';
import { planPrewakes, prewakeWindowMinutes, type PrewakeSlot } from './prewake-plan';
import { RHYTHM_IDLE_REFRESH_MINUTES, RHYTHM_REFRESH_MINUTES } from './rhythm-constants';
import { latestPrice, measuredBootMinutes, retainUsage, type UsageRecord } from './usage-record';

export interface RhythmSettings extends IdleWindowSettings {
  readonly prewake: boolean;
  readonly prewakeMaxPerDay: number;
  readonly retentionDays: number;
  /** The price assumed before the pod ran at one (its price cap). */
  readonly fallbackPricePerHour: number;
}

/** What the policy learned of one pod: the idle window in force and the pre-wakes planned. */
export interface PodRhythm {
  readonly window: IdleWindow;
  readonly prewakes: readonly PrewakeSlot[];
  readonly bootMinutes: number | null;
}

/** Uses kept per pod: about a month of a busy agent's requests. */
export const MAX_RECORDED_USES = 20_000;

/** Learns a pod's rhythm from its usage record as of `now`. Used by the idle monitor and by what-if alike. */
export function learnRhythm(settings: RhythmSettings, record: UsageRecord, now: number): PodRhythm {
  const retained = retainUsage(record, now, settings.retentionDays, MAX_RECORDED_USES);
  const bootMinutes = measuredBootMinutes(retained.boots);
  const pricePerHour = latestPrice(retained.boots) ?? settings.fallbackPricePerHour;
  const window = chooseIdleWindow(settings, {
    gaps: idleGaps(retained.uses),
    bootMinutes,
    pricePerHour,
    now,
  });
  if (settings.policy !== 'adaptive' || !settings.prewake || retained.uses.length === 0) {
    return { window, prewakes: [], bootMinutes };
  }
  const prewakes = planPrewakes(
    {
      maxPerDay: settings.prewakeMaxPerDay,
      minMinutes: settings.minMinutes,
      checkSeconds: settings.checkSeconds,
    },
    {
      starts: sessionStarts(retained.uses, settings.maxMinutes),
      observedSince: retained.uses[0].start,
      now,
      bootMinutes,
      pricePerHour,
    },
  );
  return { window, prewakes, bootMinutes };
}

/**
 * The window for this boot: a pre-woken pod nobody has used yet keeps only
 * its slot's short window; any use puts it on the learned window.
 */
export function windowInForce(
  rhythm: PodRhythm,
  prewokeFor: PrewakeSlot | null,
  usedSinceWake: boolean,
  minMinutes: number,
): number {
  if (prewokeFor !== null && !usedSinceWake) {
    return prewakeWindowMinutes(prewokeFor, rhythm.bootMinutes, minMinutes);
  }
  return rhythm.window.minutes;
}

/** When a rhythm was learned and how many uses the record held then. */
export interface LearnedMark {
  readonly at: number;
  readonly uses: number;
}

/** Whether to learn again: new use since, after a short pause; or none, after a long one. */
export function rhythmDue(last: LearnedMark | null, now: number, usesNow: number): boolean {
  if (last === null) return true;
  const elapsed = now - last.at;
  if (usesNow !== last.uses) return elapsed >= RHYTHM_REFRESH_MINUTES * 60_000;
  return elapsed >= RHYTHM_IDLE_REFRESH_MINUTES * 60_000;
}
