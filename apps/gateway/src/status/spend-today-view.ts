import { fromMicros, utcDay } from '@podwarden/policies';
import type { LedgerFigures } from '@podwarden/platform';
import { SPEND_BASIS, type SpendTodayDto } from './spend-today.dto';

function usd(micros: number): number {
  return Math.round(fromMicros(micros) * 100) / 100;
}

/** The ledger's figures as GET reports them, in USD rounded to cents; null when the ledger was unreadable. */
export function spendTodayView(
  figures: LedgerFigures | null,
  budgetUsd: number | null,
  now: number,
): SpendTodayDto | null {
  if (figures === null) return null;
  return {
    estimate: true,
    basis: SPEND_BASIS,
    day: utcDay(now),
    spentUsd: usd(figures.spentMicros),
    accruingUsd: usd(figures.accruingMicros),
    reservedUsd: usd(figures.reservedMicros),
    budgetUsd,
  };
}
