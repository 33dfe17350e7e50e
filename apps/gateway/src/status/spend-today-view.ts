import { fromMicros, utcDay } from '@podwarden/policies';
import type { BillingSnapshot, LedgerFigures } from '@podwarden/platform';
import { PROVIDER_BASIS, SPEND_BASIS, type SpendTodayDto } from './spend-today.dto';

function usd(micros: number): number {
  return Math.round(fromMicros(micros) * 100) / 100;
}

/** The ledger's figures as GET reports them, in USD rounded to cents; null when the ledger was unreadable. */
export function spendTodayView(
  figures: LedgerFigures | null,
  budgetUsd: number | null,
  now: number,
  billing: BillingSnapshot | null = null,
): SpendTodayDto | null {
  if (figures === null) return null;
  // Yesterday's reconcile says nothing of today: no provider figure until today's first one.
  const today = billing !== null && billing.day === utcDay(now) ? billing : null;
  return {
    estimate: true,
    basis: SPEND_BASIS,
    day: utcDay(now),
    spentUsd: usd(figures.spentMicros),
    accruingUsd: usd(figures.accruingMicros),
    reservedUsd: usd(figures.reservedMicros),
    budgetUsd,
    providerUsd: today === null ? null : Math.round(today.providerTodayUsd * 100) / 100,
    providerAsOf: today?.asOf ?? null,
    providerBasis: PROVIDER_BASIS,
    storageUsdPerDay: billing?.storageUsdPerDay ?? null,
  };
}
