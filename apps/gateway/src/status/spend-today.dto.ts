import { ApiProperty } from '@nestjs/swagger';

export const SPEND_BASIS =
  "estimate: each run's price × its observed uptime (open runs at their time so far); not RunPod's bill";

/** GET …: spendToday. Account-wide (every pod), from the daily-budget ledger; an estimate, labelled as one. */
export class SpendTodayDto {
  @ApiProperty({ description: 'always true: these figures are estimates, never RunPod’s bill' })
  readonly estimate!: boolean;

  @ApiProperty({ description: 'how the estimate is made' })
  readonly basis!: string;

  @ApiProperty({ description: 'the UTC day the figures are for', example: '2026-12-01' })
  readonly day!: string;

  @ApiProperty({ description: 'runs settled today: price × observed uptime, USD' })
  readonly spentUsd!: number;

  @ApiProperty({ description: 'runs still open, priced by their time so far, USD' })
  readonly accruingUsd!: number;

  @ApiProperty({ description: "open reservations: each running wake's worst case until the cap, USD" })
  readonly reservedUsd!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'DAILY_BUDGET_USD; null when no budget is set' })
  readonly budgetUsd!: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "RunPod's own billing today (UTC) for the pods podwarden knows and every pod on a configured volume, as of providerAsOf (provider-attributed; lags); null before the day's first readable reconcile",
  })
  readonly providerUsd!: number | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "when RunPod's billing behind providerUsd was read",
  })
  readonly providerAsOf!: string | null;

  @ApiProperty({ description: 'how providerUsd is measured' })
  readonly providerBasis!: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "network volume storage per day from RunPod's aggregate billing (the last whole day; account-wide); it bills while every pod is stopped",
  })
  readonly storageUsdPerDay!: number | null;
}

export const PROVIDER_BASIS =
  "provider-attributed: RunPod's hourly billing records of our pods and of every pod on a configured volume";
