/**
 * The daily budget's arithmetic. Money is kept in integer micro-dollars so
 * every replica (and the ledger's Lua script) adds exactly the same numbers.
 */
export const MICROS_PER_USD = 1_000_000;
const MS_PER_HOUR = 3_600_000;
const MS_PER_DAY = 86_400_000;

export function toMicros(usd: number): number {
  return Math.ceil(usd * MICROS_PER_USD - 1e-6);
}

export function fromMicros(micros: number): number {
  return micros / MICROS_PER_USD;
}

/** The UTC day a time falls in, as the ledger keys it ("2026-12-01"). */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/**
 * The longest a wake can bill before something stops it: the runtime cap, or
 * with the cap disabled (0) the rest of the UTC day (the budget is daily).
 */
export function worstCaseMinutes(maxRuntimeMinutes: number, now: number): number {
  if (maxRuntimeMinutes > 0) return maxRuntimeMinutes;
  const dayEnd = (Math.floor(now / MS_PER_DAY) + 1) * MS_PER_DAY;
  return (dayEnd - now) / 60_000;
}

/** What a wake reserves: price × its worst-case minutes, in micro-dollars (rounded up). */
export function reservationMicros(pricePerHour: number, minutes: number): number {
  return Math.max(0, Math.ceil((pricePerHour * minutes * 60_000 * MICROS_PER_USD) / MS_PER_HOUR - 1e-6));
}

/** What a run cost by the estimate: price × observed uptime, in micro-dollars (never negative). */
export function uptimeMicros(pricePerHour: number, fromMs: number, toMs: number): number {
  return Math.max(0, Math.round((pricePerHour * (toMs - fromMs) * MICROS_PER_USD) / MS_PER_HOUR));
}

export interface BudgetFigures {
  /** Settled today: price × observed uptime of the runs that ended. */
  readonly spentMicros: number;
  /** Open reservations (runs not settled yet), at their worst case. */
  readonly reservedMicros: number;
  readonly budgetMicros: number;
}

/** A reservation fits when settled + open + this one stay within the budget (the ledger's Lua mirrors this). */
export function reservationFits(figures: BudgetFigures, amountMicros: number): boolean {
  return figures.spentMicros + figures.reservedMicros + amountMicros <= figures.budgetMicros;
}

function usd(micros: number): string {
  return `${fromMicros(micros).toFixed(2)} USD`;
}

/** The refusal's reason: spent, reserved and budget named, and what this wake would have reserved. */
export function budgetRefusal(
  figures: BudgetFigures,
  amountMicros: number,
  pricePerHour: number,
  minutes: number,
): string {
  return (
    `daily budget exceeded: spent ${usd(figures.spentMicros)} + reserved ${usd(figures.reservedMicros)} ` +
    `+ this wake's ${usd(amountMicros)} (${pricePerHour} USD/h × ${Math.round(minutes)} min) ` +
    `would exceed DAILY_BUDGET_USD ${usd(figures.budgetMicros)}; nothing was started or created`
  );
}
