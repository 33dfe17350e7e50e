import { evidenceWeight } from './evidence-weight';
import {
  DEFAULT_BOOT_MINUTES,
  PREWAKE_MIN_DAYS,
  PREWAKE_MIN_HIT_RATE,
  PREWAKE_CHANCE,
  PREWAKE_MIN_LIFT,
  SESSION_SLOT_RADIUS_MINUTES,
  WAIT_MINUTE_USD,
} from './rhythm-constants';
import { dayClassOf, dayStartOf, minuteOfDay, type DayClass } from './utc-days';

/** One recurring session start worth waking ahead of, by UTC time of day on weekdays or weekends. */
export interface PrewakeSlot {
  readonly dayClass: DayClass;
  /** Minute of the UTC day the pre-wake begins (may be negative: the day before). */
  readonly wakeMinute: number;
  /** Minute of the UTC day by which a pre-woken pod nobody used is stopped. */
  readonly untilMinute: number;
  /** How often a session started in the slot on the days it could have. */
  readonly hitRate: number;
  /** Expected gain of one pre-wake, USD (a person's wait saved less the minutes billed ahead). */
  readonly gainUsd: number;
}

export interface PrewakeEvidence {
  /** Session starts: uses after a silence longer than the longest window (epoch ms). */
  readonly starts: readonly number[];
  /** Since when usage was recorded: days before it prove nothing. */
  readonly observedSince: number;
  readonly now: number;
  readonly bootMinutes: number | null;
  readonly pricePerHour: number;
}

export interface PrewakeSettings {
  readonly maxPerDay: number;
  readonly minMinutes: number;
  readonly checkSeconds: number;
}

const MINUTE_MS = 60_000;
/** Keeps the neighbouring windows clear of the slot's own edges (a millisecond, in minutes). */
const EDGE = 1 / MINUTE_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;

function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

interface Candidate extends PrewakeSlot {
  readonly from: number;
  readonly to: number;
}

/**
 * The slots worth a pre-wake: recurring session starts by time of day, judged by how often they came true
 * against what a miss bills (the boot and the slot; a hit bills until the person arrives but saves them the
 * boot). Slots do not overlap; at most `maxPerDay` per kind of day.
 */
export function planPrewakes(settings: PrewakeSettings, evidence: PrewakeEvidence): PrewakeSlot[] {
  if (settings.maxPerDay <= 0) return [];
  const slots: PrewakeSlot[] = [];
  for (const dayClass of ['weekday', 'weekend'] as const) {
    const chosen: Candidate[] = [];
    const candidates = candidatesFor(dayClass, settings, evidence).sort((a, b) => b.gainUsd - a.gainUsd);
    for (const candidate of candidates) {
      if (chosen.length >= settings.maxPerDay) break;
      if (chosen.some((other) => candidate.from < other.to && other.from < candidate.to)) continue;
      chosen.push(candidate);
    }
    slots.push(...chosen.map(({ from: _from, to: _to, ...slot }) => slot));
  }
  return slots.sort((a, b) =>
    a.dayClass === b.dayClass ? a.wakeMinute - b.wakeMinute : a.dayClass < b.dayClass ? -1 : 1,
  );
}

function candidatesFor(
  dayClass: DayClass,
  settings: PrewakeSettings,
  evidence: PrewakeEvidence,
): Candidate[] {
  const starts = evidence.starts
    .filter((at) => dayClassOf(at) === dayClass && at < evidence.now)
    .sort((a, b) => a - b);
  const minutes = starts.map(minuteOfDay).sort((a, b) => a - b);
  const boot = evidence.bootMinutes ?? DEFAULT_BOOT_MINUTES;
  const billedMinuteUsd = Math.max(evidence.pricePerHour, 0.01) / 60;
  const tickMinutes = settings.checkSeconds / 60;
  const classDays = slotRecord(dayClass, 0, 24 * 60, starts, evidence).days;
  const startsPerMinute = classDays > 0 ? starts.length / (classDays * 24 * 60) : 0;
  const candidates: Candidate[] = [];
  // Centres on a 5-minute grid: a slot's edges come from its members, the grid only bounds the work.
  const centres = new Set(minutes.map((minute) => Math.round(minute / 5) * 5));
  for (const centre of centres) {
    const members = minutes.slice(
      firstAtOrAfter(minutes, centre - SESSION_SLOT_RADIUS_MINUTES),
      firstAtOrAfter(minutes, centre + SESSION_SLOT_RADIUS_MINUTES + 1e-9),
    );
    if (members.length === 0) continue;
    const lo = quantile(members, 0.05);
    const hi = quantile(members, 0.95);
    const record = slotRecord(dayClass, lo, hi, starts, evidence);
    if (record.days < PREWAKE_MIN_DAYS || record.hitRate < PREWAKE_MIN_HIT_RATE) continue;
    // Recurring means this time of day stands out: frequent traffic fills any window as often.
    const width = Math.max(hi - lo, 1);
    const anyWindow = 1 - Math.exp(-startsPerMinute * width);
    const before = slotRecord(dayClass, lo - width, lo - EDGE, starts, evidence).hitRate;
    const after = slotRecord(dayClass, hi + EDGE, hi + width, starts, evidence).hitRate;
    const baseline = Math.max(anyWindow, before, after);
    if (record.hitRate - baseline < PREWAKE_MIN_LIFT) continue;
    // Many slots are tried: a slot counts only if its hits would be very unlikely by chance (Bonferroni).
    if (binomialTail(record.days, record.hits, baseline) > PREWAKE_CHANCE / centres.size) continue;
    const untilMinute = hi + settings.minMinutes;
    const missMinutes = boot + (untilMinute - lo);
    const gainUsd =
      record.hitRate * boot * WAIT_MINUTE_USD -
      billedMinuteUsd * (record.hitRate * record.earlyMinutes + (1 - record.hitRate) * missMinutes);
    if (gainUsd <= 0) continue;
    const wakeMinute = lo - boot - tickMinutes;
    candidates.push({
      dayClass,
      wakeMinute,
      untilMinute,
      hitRate: record.hitRate,
      gainUsd,
      from: wakeMinute,
      to: untilMinute,
    });
  }
  return candidates;
}

/** P(X >= hits) for X ~ Binomial(days, rate): how likely this many hits are by chance alone. */
function binomialTail(days: number, hits: number, rate: number): number {
  if (rate <= 0) return hits > 0 ? 0 : 1;
  if (rate >= 1) return 1;
  let tail = 0;
  let term = Math.pow(1 - rate, days);
  for (let k = 0; k <= days; k += 1) {
    if (k >= hits) tail += term;
    term *= ((days - k) / (k + 1)) * (rate / (1 - rate));
  }
  return Math.min(1, tail);
}

/** Index of the first sorted value at or after `value` (binary search). */
function firstAtOrAfter(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

interface SlotRecord {
  /** Days of the class on which the whole slot was observed. */
  readonly days: number;
  /** Of those, the days a session started in the slot. */
  readonly hits: number;
  readonly hitRate: number;
  /** Mean minutes from the slot's early edge to the first start, on the days it came true. */
  readonly earlyMinutes: number;
}

function slotRecord(
  dayClass: DayClass,
  lo: number,
  hi: number,
  starts: readonly number[],
  evidence: PrewakeEvidence,
): SlotRecord {
  let days = 0;
  let weightAll = 0;
  let weightHit = 0;
  let earlySum = 0;
  let hits = 0;
  const firstDay = dayStartOf(evidence.observedSince);
  for (let day = firstDay; day + hi * MINUTE_MS <= evidence.now; day += DAY_MS) {
    if (dayClassOf(day) !== dayClass || day + lo * MINUTE_MS < evidence.observedSince) continue;
    days += 1;
    const weight = evidenceWeight(day, evidence.now);
    weightAll += weight;
    const index = firstAtOrAfter(starts, day + lo * MINUTE_MS);
    const first = index < starts.length && starts[index] <= day + hi * MINUTE_MS ? starts[index] : undefined;
    if (first !== undefined) {
      weightHit += weight;
      hits += 1;
      earlySum += (first - day) / MINUTE_MS - lo;
    }
  }
  return {
    days,
    hits,
    hitRate: weightAll > 0 ? weightHit / weightAll : 0,
    earlyMinutes: hits > 0 ? earlySum / hits : 0,
  };
}

/** The next pre-wake strictly after `after`, with its slot; null when none is planned. */
export function nextPrewake(
  slots: readonly PrewakeSlot[],
  after: number,
): { readonly at: number; readonly slot: PrewakeSlot } | null {
  let next: { at: number; slot: PrewakeSlot } | null = null;
  // A slot's wake may fall on the day before its session (just after midnight): start one day back. The
  // first session whose wake can follow `after` is at most `daysAhead` days on (a wake that many days ahead
  // of its session: a boot of days, as a what-if trace may claim), and a slot's sessions recur within six
  // days after it (Sunday to Saturday), so the range ends there.
  const daysAhead = Math.ceil((Math.max(0, ...slots.map((slot) => -slot.wakeMinute)) * MINUTE_MS) / DAY_MS);
  const lastDay = dayStartOf(after) + (6 + daysAhead) * DAY_MS;
  for (let day = dayStartOf(after) - DAY_MS; day <= lastDay; day += DAY_MS) {
    for (const slot of slots) {
      const at = day + slot.wakeMinute * MINUTE_MS;
      if (dayClassOf(day) === slot.dayClass && at > after && (next === null || at < next.at))
        next = { at, slot };
    }
  }
  return next;
}

/** How long a pre-woken pod nobody has used waits after ready: until its slot's late edge. */
export function prewakeWindowMinutes(
  slot: PrewakeSlot,
  bootMinutes: number | null,
  minMinutes: number,
): number {
  const boot = bootMinutes ?? DEFAULT_BOOT_MINUTES;
  return Math.max(minMinutes, slot.untilMinute - slot.wakeMinute - boot);
}
