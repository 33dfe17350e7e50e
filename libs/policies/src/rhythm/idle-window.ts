import type { IdlePolicyName } from '../config/config-types';
import { evidenceWeight } from './evidence-weight';
import type { IdleGap } from './idle-gaps';
import {
  DEFAULT_BOOT_MINUTES,
  EXTRA_COLD_START_SHARE,
  MIN_GAPS_TO_JUDGE,
  WAIT_MINUTE_USD,
} from './rhythm-constants';

export interface IdleWindowSettings {
  readonly policy: IdlePolicyName;
  /** The seed's fixed window, and the adaptive policy's until it has seen enough gaps. */
  readonly idleMinutes: number;
  readonly minMinutes: number;
  readonly maxMinutes: number;
  readonly checkSeconds: number;
}

export interface IdleWindowEvidence {
  readonly gaps: readonly IdleGap[];
  /** The pod's measured boot (wake to ready); null before one was measured. */
  readonly bootMinutes: number | null;
  readonly pricePerHour: number;
  readonly now: number;
}

/** The window in force and why, as GET shows it. */
export interface IdleWindow {
  readonly minutes: number;
  readonly policy: IdlePolicyName;
  readonly basis: string;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Ski rental over the pod's own gaps: waiting W minutes costs min(gap, W) billed minutes, and a longer gap
 * also a cold start (the boot billed again and a person waiting). The cheapest window that adds almost no
 * cold starts over the longest allowed one wins.
 */
export function chooseIdleWindow(settings: IdleWindowSettings, evidence: IdleWindowEvidence): IdleWindow {
  if (settings.policy === 'fixed') {
    return {
      minutes: settings.idleMinutes,
      policy: 'fixed',
      basis: `fixed window of ${settings.idleMinutes} min`,
    };
  }
  if (evidence.gaps.length < MIN_GAPS_TO_JUDGE) {
    return {
      minutes: settings.idleMinutes,
      policy: 'adaptive',
      basis: `fixed window until ${MIN_GAPS_TO_JUDGE} idle gaps are seen (${evidence.gaps.length} so far)`,
    };
  }
  const minutes = cheapestSafeWindow(settings, evidence);
  const oldest = Math.min(...evidence.gaps.map((gap) => gap.endedAt));
  const days = Math.max(1, Math.ceil((evidence.now - oldest) / DAY_MS));
  return {
    minutes,
    policy: 'adaptive',
    basis: `learned from ${evidence.gaps.length} idle gaps over ${days} day${days === 1 ? '' : 's'}`,
  };
}

interface WeightedGap {
  readonly minutes: number;
  readonly weight: number;
}

function cheapestSafeWindow(settings: IdleWindowSettings, evidence: IdleWindowEvidence): number {
  const { minMinutes, maxMinutes } = settings;
  const gaps: WeightedGap[] = evidence.gaps
    .map((gap) => ({ minutes: gap.minutes, weight: evidenceWeight(gap.endedAt, evidence.now) }))
    .sort((a, b) => a.minutes - b.minutes);
  const boot = evidence.bootMinutes ?? DEFAULT_BOOT_MINUTES;
  const billedMinuteUsd = Math.max(evidence.pricePerHour, 0.01) / 60;
  // A cold start in billed-minute terms: the boot billed again, and the boot waited out by a person.
  const coldStartMinutes = boot + (boot * WAIT_MINUTE_USD) / billedMinuteUsd;
  const total = gaps.reduce((sum, gap) => sum + gap.weight, 0);
  const coldAtMax = gaps.filter((gap) => gap.minutes > maxMinutes).reduce((sum, gap) => sum + gap.weight, 0);
  const candidates = [
    minMinutes,
    ...gaps.map((gap) => gap.minutes).filter((m) => m > minMinutes && m < maxMinutes),
    maxMinutes,
  ];

  let best = maxMinutes;
  let bestCost = Number.POSITIVE_INFINITY;
  let index = 0;
  let coveredWeight = 0;
  let coveredMinutes = 0;
  for (const window of candidates) {
    while (index < gaps.length && gaps[index].minutes <= window) {
      coveredWeight += gaps[index].weight;
      coveredMinutes += gaps[index].weight * gaps[index].minutes;
      index += 1;
    }
    const uncovered = total - coveredWeight;
    const addedColdStarts = uncovered - coldAtMax;
    if (addedColdStarts > EXTRA_COLD_START_SHARE * coldAtMax + 1e-9) continue;
    const cost = coveredMinutes + uncovered * (window + coldStartMinutes);
    // Candidates ascend and only a cheaper one replaces: a tie keeps the shorter window, which the
    // evidence cannot tell from a longer one (both cover every gap seen) and which bills less.
    if (cost < bestCost - 1e-9) {
      best = window;
      bestCost = cost;
    }
  }
  return onTickGrid(best, settings);
}

/** The window the ticks can express: whole ticks, rounded up so every covered gap stays covered. */
function onTickGrid(minutes: number, settings: IdleWindowSettings): number {
  const tickMinutes = settings.checkSeconds / 60;
  const ticks = Math.ceil(minutes / tickMinutes - 1e-9);
  const gridded = Math.round(ticks * tickMinutes * 1000) / 1000;
  return Math.min(settings.maxMinutes, Math.max(settings.minMinutes, gridded));
}
